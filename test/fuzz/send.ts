// A raw HTTPS client for fuzzed requests: the path goes out byte for byte (no URL
// normalisation, so `..`, `//` and `%2F` reach the server as generated), header values are
// whatever Node lets through, and a response that streams (a watch) counts as answered once
// its headers arrive. The harness's `request` cannot do this: it parses the URL first.
import * as https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { TlsCredentials } from '../harness/index.js';

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export type RawOutcome =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: Buffer; ms: number; streamed: boolean }
  /** The client gave up waiting: a hang. */
  | { kind: 'timeout'; ms: number }
  /** The connection failed or closed without an answer. */
  | { kind: 'error'; code: string; message: string; ms: number };

/** Node refuses these characters in a request path (and throws before sending). */
const invalidPathChars = /[^\u0021-\u00ff]/g;
/** Node refuses control characters in header values (and anything beyond Latin-1). */
const invalidHeaderChars = /[^\t\u0020-\u007e\u0080-\u00ff]/g;

/** Percent-encodes what Node would refuse, so every generated path can be sent. */
export function sendablePath(p: string): string {
  return p.replace(invalidPathChars, (c) => encodeURIComponent(c));
}

export function sendableHeader(v: string): string {
  return v.replace(invalidHeaderChars, '?');
}

/**
 * Upstream reads `watch` as Go's Convert_Slice_string_To_bool does: any first value but
 * "0", "f" or "false" (any case) is true, the empty one and "yes" included.
 */
export function asksToWatch(path: string): boolean {
  const q = path.indexOf('?');
  if (q < 0) return false;
  let v: string | null;
  try {
    v = new URLSearchParams(path.slice(q + 1)).get('watch');
  } catch {
    return false;
  }
  return v !== null && !['0', 'f', 'false'].includes(v.toLowerCase());
}

export interface Sender {
  send(r: RawRequest, timeoutMs: number): Promise<RawOutcome>;
  close(): void;
}

/** Keep-alive connections to one server with one identity (client cert, or none). */
export function createSender(baseUrl: string, creds: TlsCredentials, maxSockets = 16): Sender {
  const u = new URL(baseUrl);
  const agent = new https.Agent({ keepAlive: true, maxSockets, ca: creds.ca, cert: creds.cert, key: creds.key, rejectUnauthorized: false });
  return {
    close: () => agent.destroy(),
    send: (r, timeoutMs) => new Promise<RawOutcome>((resolve) => {
      const t0 = performance.now();
      const ms = (): number => Math.round(performance.now() - t0);
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const done = (o: RawOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) headers[k] = sendableHeader(v);
      if (r.body) headers['Content-Length'] = String(r.body.length);
      let req: ReturnType<typeof https.request>;
      try {
        req = https.request({ agent, hostname: u.hostname, port: u.port, method: r.method, path: sendablePath(r.path), headers });
      } catch (err) {
        // Only a request Node itself refuses to build ends here; the server never saw it.
        done({ kind: 'error', code: 'CLIENT_REFUSED', message: (err as Error).message, ms: 0 });
        return;
      }
      timer = setTimeout(() => {
        done({ kind: 'timeout', ms: ms() });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => done({ kind: 'error', code: err.code ?? 'ERR', message: err.message, ms: ms() }));
      req.on('response', (res) => {
        const chunked = res.headers['transfer-encoding'] === 'chunked';
        const watchy = asksToWatch(r.path) || /\/watch\//i.test(r.path) || String(res.headers['content-type'] ?? '').includes('watch');
        // A watch (or anything streaming 2xx) is answered once its headers are in.
        if (res.statusCode! < 300 && chunked && watchy) {
          done({ kind: 'response', status: res.statusCode!, headers: res.headers, body: Buffer.alloc(0), ms: ms(), streamed: true });
          res.destroy();
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ kind: 'response', status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ms: ms(), streamed: false }));
        res.on('error', (err: NodeJS.ErrnoException) => done({ kind: 'error', code: err.code ?? 'ERR', message: err.message, ms: ms() }));
      });
      req.end(r.body);
    }),
  };
}
