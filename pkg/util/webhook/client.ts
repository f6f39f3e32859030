// The HTTPS client of one webhook (admission and CRD conversion webhooks alike, as
// upstream's util/webhook ClientManager serves both): its own keep-alive agent (trust
// roots from caBundle or the system, optional client credentials), made when the
// configuration is compiled and destroyed when it changes. Failures are reported in the
// words of Go's HTTP client and client-go's REST client, because users match on
// upstream's messages.
import * as https from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import { StatusError, type StatusReason } from '../../runtime/errors.js';
import { genericServerResponse } from '../../runtime/generic-server-response.js';

/** What the server presents to the webhook (admission's kubeconfig resolver supplies it). */
export interface ClientCredentials {
  cert?: string;
  key?: string;
  token?: string;
  username?: string;
  password?: string;
}

export interface Endpoint {
  /** The URL as named in messages (`https://svc.ns.svc:443/path`, or the configured url). */
  url: string;
  /** Where to connect (the Service's ClusterIP for a service reference). */
  host: string;
  port: number;
  path: string;
  /** The name the serving certificate must be valid for. */
  serverName: string;
}

export interface WebhookResponse {
  status: number;
  body: string;
  /** The Content-Type header, '' when absent. */
  contentType: string;
}

/** The URL Go's client names in its errors: the endpoint's, with the timeout query client-go adds. */
export function requestURL(url: string, timeoutSeconds: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}timeout=${timeoutSeconds}s`;
}

export class WebhookClient {
  private readonly agent: https.Agent;
  private readonly authorization: string | undefined;

  constructor(caBundle: string | undefined, creds?: ClientCredentials) {
    const ca = caBundle ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined;
    this.agent = new https.Agent({ keepAlive: true, ca, cert: creds?.cert, key: creds?.key, maxSockets: 64 });
    if (creds?.token) this.authorization = `Bearer ${creds.token}`;
    else if (creds?.username !== undefined || creds?.password !== undefined) {
      this.authorization = `Basic ${Buffer.from(`${creds.username ?? ''}:${creds.password ?? ''}`).toString('base64')}`;
    }
  }

  /** POSTs the review; rejects with a Go-style reason string on transport failure or timeout. */
  post(ep: Endpoint, body: string, timeoutSeconds: number): Promise<WebhookResponse> {
    const query = `timeout=${timeoutSeconds}s`;
    const shown = requestURL(ep.url, timeoutSeconds);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': String(Buffer.byteLength(body)),
    };
    if (this.authorization) headers['Authorization'] = this.authorization;
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (reason: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new Error(`Post "${shown}": ${reason}`));
      };
      const req = https.request({
        method: 'POST', host: ep.host, port: ep.port, path: `${ep.path}${ep.path.includes('?') ? '&' : '?'}${query}`, headers,
        agent: this.agent, servername: isIP(ep.serverName) ? undefined : ep.serverName,
        // Verify against the service's DNS name, not the ClusterIP dialled.
        checkServerIdentity: (_host, cert) => checkServerIdentity(ep.serverName, cert),
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), contentType: res.headers['content-type'] ?? '' });
        });
        res.on('error', (err) => fail(goNetError(err, ep)));
      });
      const timer = setTimeout(() => {
        fail('context deadline exceeded');
        req.destroy();
      }, timeoutSeconds * 1000);
      req.on('error', (err) => fail(goNetError(err, ep)));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const unknownAuthority = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_SIGNATURE_FAILURE',
]);

function goNetError(err: Error & { code?: string }, ep: Endpoint): string {
  const addr = `${ep.host.includes(':') ? `[${ep.host}]` : ep.host}:${ep.port}`;
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${addr}: connect: connection refused`;
    case 'ECONNRESET': return 'read: connection reset by peer';
    case 'ETIMEDOUT': return `dial tcp ${addr}: i/o timeout`;
    case 'ENOTFOUND': return `dial tcp: lookup ${ep.host}: no such host`;
    case 'CERT_HAS_EXPIRED': return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID': return `tls: failed to verify certificate: x509: ${hostnameMismatch(err, ep.serverName)}`;
    default:
      if (err.code && unknownAuthority.has(err.code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
      return err.message;
  }
}

/** Go's HostnameError text: the names the certificate is valid for. */
function hostnameMismatch(err: Error & { cert?: { subjectaltname?: string } }, host: string): string {
  const ip = isIP(host) !== 0;
  const names = (err.cert?.subjectaltname ?? '').split(', ')
    .filter((n) => n.startsWith(ip ? 'IP Address:' : 'DNS:')).map((n) => n.slice(n.indexOf(':') + 1));
  return names.length > 0 ? `certificate is valid for ${names.join(', ')}, not ${host}` : `certificate is not valid for any names, but wanted to match ${host}`;
}

/**
 * A POST answered outside 200-206, as client-go's REST client reports it: the Status the
 * body carries, else upstream's NewGenericServerResponse, which quotes the body only when
 * it is text (`unknown` otherwise) and keeps it only for 403, 406, 415 and other codes of 500 and above.
 */
export function unexpectedStatus(res: WebhookResponse): StatusError {
  try {
    const s = JSON.parse(res.body) as { kind?: string; code?: number; message?: string; reason?: string };
    if (s?.kind === 'Status' && typeof s.message === 'string') {
      return new StatusError(s.code || res.status, (s.reason ?? '') as StatusReason, s.message);
    }
  } catch { /* not JSON */ }
  const serverMessage = res.contentType.trim().toLowerCase().startsWith('text/') ? res.body.trim() : 'unknown';
  return genericServerResponse({ code: res.status, verb: 'POST', serverMessage });
}
