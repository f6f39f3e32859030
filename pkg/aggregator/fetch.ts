// One GET from an extension server with the aggregator's own identity (front-proxy
// headers) and the APIService's transport, read whole; what the discovery and OpenAPI
// copies are fetched with.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../authentication/user.js';
import type { TransportConfig } from '../util/proxy/transport.js';
import { backendRequest } from '../util/proxy/backend.js';
import { withAuthProxyHeaders } from './auth-headers.js';

export interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  contentType: string;
  body: string;
}

export function fetchAs(url: URL, transport: TransportConfig, user: UserInfo, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = backendRequest(url, transport, 'GET', withAuthProxyHeaders(headers, user));
    const timer = setTimeout(() => req.destroy(new Error(`timed out fetching ${url.href}`)), timeoutMs);
    timer.unref();
    req.once('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0, headers: res.headers, contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.once('error', (err) => { clearTimeout(timer); reject(err); });
    });
    req.once('error', (err) => { clearTimeout(timer); reject(err); });
    req.end();
  });
}
