// The credentials of a kubeconfig's current context: server, CA and a client certificate
// or token, inline (`-data`) or as files, as kubectl reads them.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';

export interface Credentials { server: string; ca?: string; cert?: string; key?: string; token?: string }

interface Named<T> { name: string; [k: string]: unknown; cluster?: T; user?: T; context?: T }

export function readKubeconfig(file: string): Credentials {
  const doc = parse(readFileSync(file, 'utf8')) as {
    'current-context'?: string;
    contexts: Array<Named<{ cluster: string; user: string }>>;
    clusters: Array<Named<Record<string, string>>>;
    users: Array<Named<Record<string, string>>>;
  };
  const ctx = doc.contexts.find((c) => c.name === doc['current-context'])?.context ?? doc.contexts[0]?.context;
  if (!ctx) throw new Error(`${file}: no context`);
  const cluster = doc.clusters.find((c) => c.name === ctx.cluster)?.cluster;
  const user = doc.users.find((u) => u.name === ctx.user)?.user ?? {};
  if (!cluster) throw new Error(`${file}: no cluster ${ctx.cluster}`);
  const base = dirname(resolve(file));
  const material = (o: Record<string, string>, field: string): string | undefined => {
    if (o[`${field}-data`]) return Buffer.from(o[`${field}-data`]!, 'base64').toString('utf8');
    if (o[field]) return readFileSync(resolve(base, o[field]!), 'utf8');
    return undefined;
  };
  return {
    server: cluster.server!,
    ca: material(cluster, 'certificate-authority'),
    cert: material(user, 'client-certificate'),
    key: material(user, 'client-key'),
    token: user.token,
  };
}
