// The connection file of an authorization webhook: kubeconfig format, current context
// (or the only one), with file paths relative to the file.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface WebhookConnection {
  server: string;
  ca?: string;
  insecure?: boolean;
  cert?: string;
  key?: string;
  token?: string;
}

type Named<T> = { name?: string } & T;
interface KubeconfigFile {
  clusters?: Array<Named<{ cluster?: Record<string, unknown> }>>;
  users?: Array<Named<{ user?: Record<string, unknown> }>>;
  contexts?: Array<Named<{ context?: { cluster?: string; user?: string } }>>;
  'current-context'?: string;
}

export function loadWebhookConnection(path: string): WebhookConnection {
  const cfg = (parse(readFileSync(path, 'utf8')) ?? {}) as KubeconfigFile;
  const base = dirname(path);
  const file = (p: unknown): string | undefined => (typeof p === 'string' && p ? readFileSync(isAbsolute(p) ? p : join(base, p), 'utf8') : undefined);
  const data = (d: unknown): string | undefined => (typeof d === 'string' && d ? Buffer.from(d, 'base64').toString('utf8') : undefined);
  const ctx = cfg.contexts?.find((c) => c.name === cfg['current-context'])?.context ?? cfg.contexts?.[0]?.context;
  const cluster = (ctx?.cluster ? cfg.clusters?.find((c) => c.name === ctx.cluster) : cfg.clusters?.[0])?.cluster;
  const user = (ctx?.user ? cfg.users?.find((u) => u.name === ctx.user) : cfg.users?.[0])?.user ?? {};
  if (!cluster || typeof cluster.server !== 'string' || !cluster.server) {
    throw new Error(`invalid configuration: no server found for cluster in ${path}`);
  }
  return {
    server: cluster.server,
    ca: data(cluster['certificate-authority-data']) ?? file(cluster['certificate-authority']),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    cert: data(user['client-certificate-data']) ?? file(user['client-certificate']),
    key: data(user['client-key-data']) ?? file(user['client-key']),
    token: typeof user.token === 'string' ? user.token : file(user.tokenFile)?.trim(),
  };
}
