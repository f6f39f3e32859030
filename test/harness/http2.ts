// An HTTP/2 client as client-go uses one: one TLS connection (ALPN h2) carrying many
// requests and watches as streams.
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { TlsCredentials } from './http.js';

/** Opens a session to `url` and waits for it to connect; `remoteSettings` are the server's first SETTINGS. */
export async function connectH2(url: string, creds: TlsCredentials): Promise<{ session: ClientHttp2Session; remoteSettings: Promise<{ maxConcurrentStreams?: number }> }> {
  const session = connect(url, { ca: creds.ca, cert: creds.cert, key: creds.key });
  const remoteSettings = new Promise<{ maxConcurrentStreams?: number }>((resolve) => session.once('remoteSettings', resolve));
  await new Promise<void>((resolve, reject) => { session.once('connect', () => resolve()); session.once('error', reject); });
  return { session, remoteSettings };
}

/** One request on the session; object bodies go as JSON, JSON answers come back parsed. */
export function h2Request(session: ClientHttp2Session, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const s = session.request({
      ':method': method, ':path': path,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    }, { endStream: body === undefined });
    let status = 0;
    let text = '';
    s.setEncoding('utf8');
    s.once('response', (h) => { status = Number(h[':status']); });
    s.on('data', (c: string) => { text += c; });
    s.once('end', () => { try { resolve({ status, body: JSON.parse(text) as unknown }); } catch { resolve({ status, body: text }); } });
    s.once('error', reject);
    if (body !== undefined) s.end(JSON.stringify(body));
  });
}

/** A watch on the session: its stream and each JSON line as it comes. */
export function h2Watch(session: ClientHttp2Session, path: string, onEvent: (ev: { type: string; object: { metadata: { name: string } } }) => void): { stream: ClientHttp2Stream; status: Promise<number> } {
  const stream = session.request({ ':path': path });
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) onEvent(JSON.parse(line) as { type: string; object: { metadata: { name: string } } });
    }
  });
  const status = new Promise<number>((resolve, reject) => {
    stream.once('response', (h) => resolve(Number(h[':status'])));
    stream.once('error', reject);
  });
  return { stream, status };
}
