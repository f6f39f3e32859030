// The HTTPS calls authenticators make (OIDC discovery and keys, token webhooks), with
// their own trust roots and client credentials rather than the process defaults.
import * as https from 'node:https';

export interface OutboundTLS {
  /** PEM CA bundle; default: the system roots. */
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify?: boolean;
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken?: string;
}

export interface OutboundRequest extends OutboundTLS {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  statusText: string;
  body: string;
  headers?: Record<string, string | string[] | undefined>;
}

export function httpsRequest(url: string, o: OutboundRequest = {}): Promise<OutboundResponse> {
  const u = new URL(url);
  if (u.protocol !== 'https:') return Promise.reject(new Error(`unsupported protocol scheme "${u.protocol.replace(/:$/, '')}"`));
  const headers: Record<string, string> = { Accept: 'application/json', ...(o.headers ?? {}) };
  if (o.bearerToken) headers['Authorization'] = `Bearer ${o.bearerToken}`;
  if (o.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(o.body));
  }
  return new Promise((resolve, reject) => {
    const req = https.request({
      method: o.method ?? 'GET', hostname: u.hostname, port: u.port, path: u.pathname + u.search, headers,
      ca: o.ca, cert: o.cert, key: o.key, rejectUnauthorized: !o.insecureSkipVerify, agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.setTimeout(o.timeoutMs ?? 30_000, () => req.destroy(new Error(`${req.method} ${url}: timeout awaiting response headers`)));
    req.once('error', reject);
    req.end(o.body);
  });
}
