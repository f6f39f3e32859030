// One request to a backend (a kubelet, a pod, a service endpoint) over http or https
// with the transport's credentials. Dialling is bounded by the transport's timeout so a
// silent address fails like Go's dialer does ("i/o timeout") instead of hanging.
import { request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { TransportConfig } from './transport.js';

export function backendRequest(url: URL, transport: TransportConfig, method: string, headers: OutgoingHttpHeaders): ClientRequest {
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const common = {
    host: hostname, port: url.port || (secure ? 443 : 80), path: `${url.pathname}${url.search}`,
    method, headers, agent: false as const,
  };
  const req = secure
    ? httpsRequest({
      ...common, cert: transport.cert, key: transport.key, ca: transport.ca,
      rejectUnauthorized: transport.rejectUnauthorized,
      servername: transport.serverName ?? (isIP(hostname) ? undefined : hostname),
    })
    : httpRequest(common);
  req.on('socket', (socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' }));
    }, transport.connectTimeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
  return req;
}

/** host:port as Go prints a dialled address. */
export function hostPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * Hop-by-hop headers (RFC 7230 6.1) a proxy does not forward, plus those named in Connection,
 * and HTTP/2's pseudo-headers (:method, :path, :authority, :scheme), which are not headers.
 */
export function endToEndHeaders(raw: Record<string, string | string[] | undefined>, keepUpgrade = false): OutgoingHttpHeaders {
  const hop = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
  const conn = raw.connection;
  for (const t of (Array.isArray(conn) ? conn.join(',') : conn ?? '').split(',')) if (t.trim()) hop.add(t.trim().toLowerCase());
  if (keepUpgrade) { hop.delete('connection'); hop.delete('upgrade'); }
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && !k.startsWith(':') && !hop.has(k.toLowerCase())) out[k] = v;
  return out;
}
