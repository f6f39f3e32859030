// The few calls the test API makes as the server's admin: JSON over HTTPS with the
// kubeconfig's client certificate.
import { request } from 'node:https';
import { parse } from 'yaml';

export interface AdminClient {
  server: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** Reads the single-user kubeconfig the server writes (--write-admin-kubeconfig). */
export function adminClient(kubeconfig: string): AdminClient {
  const config = parse(kubeconfig);
  const cluster = config.clusters[0].cluster;
  const user = config.users[0].user;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const tls = { ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) };
  const server: string = cluster.server;
  return {
    server,
    call(method, path, body) {
      return new Promise((resolve, reject) => {
        const data = body === undefined ? undefined : JSON.stringify(body);
        const req = request(new URL(path, server), {
          method, ...tls, agent: false, timeout: 10_000,
          headers: { Accept: 'application/json', ...(data ? { 'Content-Type': 'application/json' } : {}) },
        }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => { text += c; });
          res.on('end', () => {
            let parsed: unknown = text;
            try { parsed = JSON.parse(text); } catch { /* not JSON: /readyz's "ok" */ }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        });
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
        req.end(data);
      });
    },
  };
}
