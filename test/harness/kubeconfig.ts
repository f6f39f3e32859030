// Self-contained kubeconfig files (credentials embedded as base64 data).
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export type KubeconfigUser =
  | { name: string; cert: string; key: string }
  | { name: string; token: string }
  | { name: string };

export interface KubeconfigSpec {
  server: string;
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  user: KubeconfigUser;
  clusterName?: string;
}

const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

export function kubeconfigYaml(spec: KubeconfigSpec): string {
  const cluster = spec.clusterName ?? 'test';
  const u = spec.user;
  const credentials =
    'cert' in u ? { 'client-certificate-data': b64(u.cert), 'client-key-data': b64(u.key) }
    : 'token' in u ? { token: u.token }
    : {};
  const context = `${u.name}@${cluster}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server: spec.server, 'certificate-authority-data': b64(spec.ca) } }],
    users: [{ name: u.name, user: credentials }],
    contexts: [{ name: context, context: { cluster, user: u.name } }],
    'current-context': context,
    preferences: {},
  });
}

export function writeKubeconfig(path: string, spec: KubeconfigSpec): string {
  writeFileSync(path, kubeconfigYaml(spec), { mode: 0o600 });
  return path;
}
