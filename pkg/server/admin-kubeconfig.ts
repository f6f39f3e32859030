// For local use (make run): a client CA and a system:masters certificate in the cert
// dir, and a kubeconfig that kubectl can use as is. Not an upstream flag.
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { generateCA, issueCertificate } from '../util/cert/index.js';

export async function ensureClientCA(certDir: string): Promise<string> {
  const caCert = join(certDir, 'client-ca.crt');
  const caKey = join(certDir, 'client-ca.key');
  if (!existsSync(caCert) || !existsSync(caKey)) {
    mkdirSync(certDir, { recursive: true });
    const ca = await generateCA('kube-apiserver-ts-client-ca');
    writeFileSync(caCert, ca.cert, { mode: 0o644 });
    writeFileSync(caKey, ca.key, { mode: 0o600 });
  }
  return caCert;
}

export async function writeAdminKubeconfig(path: string, certDir: string, server: string, servingCA: string): Promise<void> {
  const ca = { cert: readFileSync(join(certDir, 'client-ca.crt'), 'utf8'), key: readFileSync(join(certDir, 'client-ca.key'), 'utf8') };
  const admin = await issueCertificate(ca, { cn: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client' });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const config = {
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'local', cluster: { server, 'certificate-authority-data': b64(servingCA) } }],
    users: [{ name: 'admin', user: { 'client-certificate-data': b64(admin.cert), 'client-key-data': b64(admin.key) } }],
    contexts: [{ name: 'local', context: { cluster: 'local', user: 'admin' } }],
    'current-context': 'local',
  };
  mkdirSync(dirname(path), { recursive: true });
  // Whole or absent: whoever waits for the file (the test API) never reads half of it.
  writeFileSync(`${path}.tmp`, stringify(config), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}
