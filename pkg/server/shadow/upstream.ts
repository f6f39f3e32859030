// The copy of a read sent to upstream: the same path and Accept, as the same user
// (impersonation headers: the kubeconfig's identity must be allowed to impersonate).
import { request as httpsRequest, Agent } from 'node:https';
import type { UserInfo } from '../../authentication/user.js';
import { loadWebhookConnection } from '../../authorization/webhook/kubeconfig.js';

export interface UpstreamAnswer { status: number; contentType: string; body: Buffer }

export interface Upstream {
  read(path: string, accept: string, user: UserInfo): Promise<UpstreamAnswer>;
}

const timeoutMs = 30_000;

export function upstreamFromKubeconfig(path: string, maxSockets: number): Upstream {
  const c = loadWebhookConnection(path);
  const base = new URL(c.server);
  const agent = new Agent({ keepAlive: true, maxSockets, ca: c.ca, cert: c.cert, key: c.key, rejectUnauthorized: !c.insecure });
  return {
    read(p, accept, user) {
      const headers: Record<string, string | string[]> = { Accept: accept || 'application/json', 'Impersonate-User': user.name };
      if (user.groups.length) headers['Impersonate-Group'] = user.groups;
      if (user.uid) headers['Impersonate-Uid'] = user.uid;
      for (const [k, v] of Object.entries(user.extra ?? {})) headers[`Impersonate-Extra-${encodeURIComponent(k)}`] = v;
      if (c.token) headers.Authorization = `Bearer ${c.token}`;
      const url = new URL(p, base);
      return new Promise((resolve, reject) => {
        const req = httpsRequest({ method: 'GET', hostname: url.hostname, port: url.port, path: url.pathname + url.search, agent, headers, timeout: timeoutMs }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
          res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`no answer from upstream in ${timeoutMs} ms`)));
        req.on('error', reject);
        req.end();
      });
    },
  };
}
