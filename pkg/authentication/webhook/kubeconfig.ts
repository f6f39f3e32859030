// A webhook's connection file in kubeconfig format: the current context's cluster
// (server URL and CA) and user (client certificate and key, or a token). Relative file
// names are read from the kubeconfig's directory.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { OutboundTLS } from '../httpclient.js';

export interface WebhookConnection extends OutboundTLS {
  server: string;
}

type Named<T> = Array<{ name?: string } & T>;
interface KubeconfigFile {
  clusters?: Named<{ cluster?: Record<string, unknown> }>;
  users?: Named<{ user?: Record<string, unknown> }>;
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>;
  'current-context'?: string;
}

export function loadWebhookKubeconfig(path: string): WebhookConnection {
  const doc = (parse(readFileSync(path, 'utf8')) ?? {}) as KubeconfigFile;
  const base = dirname(path);
  const contexts = doc.contexts ?? [];
  const contextName = doc['current-context'] ?? (contexts.length === 1 ? contexts[0]!.name : undefined);
  const context = contexts.find((c) => c.name === contextName)?.context;
  const cluster = (context ? doc.clusters?.find((c) => c.name === context.cluster) : doc.clusters?.[0])?.cluster;
  const user = (context ? doc.users?.find((u) => u.name === context.user) : doc.users?.[0])?.user ?? {};
  if (!cluster || typeof cluster['server'] !== 'string' || cluster['server'] === '') {
    throw new Error(`invalid configuration: no server found for cluster in ${path}`);
  }
  const str = (o: Record<string, unknown>, k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const material = (o: Record<string, unknown>, dataKey: string, fileKey: string): string | undefined => {
    const data = str(o, dataKey);
    if (data) return Buffer.from(data, 'base64').toString('utf8');
    const file = str(o, fileKey);
    return file ? readFileSync(isAbsolute(file) ? file : join(base, file), 'utf8') : undefined;
  };
  const tokenFile = str(user, 'tokenFile');
  return {
    server: cluster['server'],
    ca: material(cluster, 'certificate-authority-data', 'certificate-authority'),
    insecureSkipVerify: cluster['insecure-skip-tls-verify'] === true,
    cert: material(user, 'client-certificate-data', 'client-certificate'),
    key: material(user, 'client-key-data', 'client-key'),
    bearerToken: str(user, 'token') ?? (tokenFile ? readFileSync(isAbsolute(tokenFile) ? tokenFile : join(base, tokenFile), 'utf8').trim() : undefined),
  };
}
