// How one simulated component reaches the API: over HTTP/2, one TLS connection carrying
// every request and watch of that identity, as client-go multiplexes a client's calls
// (a new connection only when the server sent GOAWAY or the connection broke); or over
// HTTP/1.1, a keep-alive pool where every watch holds a connection of its own (the
// comparison: 21 connections per simulated node instead of one).
import { Agent, request as httpsRequest } from 'node:https';
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { Readable } from 'node:stream';

export interface Identity { ca?: string; cert?: string; key?: string; token?: string }
export type Protocol = 'h2' | 'http/1.1';

/** A response being read: its status and its body as a stream. */
export type OnResponse = (status: number, body: Readable) => void;

export interface Transport {
  /** Sends one request; `onResponse` gets the answer, `onFailure` a request that got none. Returns a cancel. */
  send(method: string, path: string, headers: Record<string, string>, payload: Buffer | undefined,
    timeoutMs: number | undefined, onResponse: OnResponse, onFailure: (err: Error) => void): () => void;
  close(): void;
}

export function newTransport(protocol: Protocol, server: string, id: Identity): Transport {
  return protocol === 'h2' ? new Http2Transport(server, id) : new Http1Transport(server, id);
}

class Http1Transport implements Transport {
  private readonly agent: Agent;

  constructor(private readonly server: string, id: Identity) {
    this.agent = new Agent({ keepAlive: true, maxFreeSockets: 2, ca: id.ca, cert: id.cert, key: id.key, maxCachedSessions: 4 });
  }

  send(method: string, path: string, headers: Record<string, string>, payload: Buffer | undefined,
    timeoutMs: number | undefined, onResponse: OnResponse, onFailure: (err: Error) => void): () => void {
    const u = new URL(path, this.server);
    const req = httpsRequest({
      method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: this.agent, headers,
      ...(timeoutMs ? { timeout: timeoutMs } : {}),
    }, (res) => onResponse(res.statusCode ?? 0, res));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', onFailure);
    req.end(payload);
    return () => req.destroy();
  }

  close(): void { this.agent.destroy(); }
}

/** client-go's HTTP/2 transport windows: 4 MiB per stream, 1 GiB per connection. */
const streamWindow = 4 << 20;
const connectionWindow = 1 << 30;

class Http2Transport implements Transport {
  private session: ClientHttp2Session | undefined;
  private closed = false;

  constructor(private readonly server: string, private readonly id: Identity) {}

  private current(): ClientHttp2Session {
    const s = this.session;
    if (s && !s.closed && !s.destroyed) return s;
    const next = connect(this.server, {
      ca: this.id.ca, cert: this.id.cert, key: this.id.key,
      settings: { initialWindowSize: streamWindow, enablePush: false },
      maxSessionMemory: 64,
    });
    next.once('connect', () => { try { next.setLocalWindowSize(connectionWindow); } catch { /* gone already */ } });
    // Streams see their own failures; a session's error or GOAWAY only means: dial again.
    next.on('error', () => undefined);
    const forget = (): void => { if (this.session === next) this.session = undefined; };
    next.once('goaway', forget);
    next.once('close', forget);
    this.session = next;
    return next;
  }

  send(method: string, path: string, headers: Record<string, string>, payload: Buffer | undefined,
    timeoutMs: number | undefined, onResponse: OnResponse, onFailure: (err: Error) => void): () => void {
    if (this.closed) { onFailure(new Error('transport closed')); return () => undefined; }
    const h = { ':method': method, ':path': path, ...lowerCase(headers) };
    // Node ends DELETE (and GET) streams at once unless told a body follows.
    const o = { endStream: payload === undefined };
    let stream: ClientHttp2Stream;
    try {
      stream = this.current().request(h, o);
    } catch {
      // The session was going away between the check and the request: once more, on a new one.
      this.session = undefined;
      try { stream = this.current().request(h, o); } catch (again) { onFailure(again as Error); return () => undefined; }
    }
    let answered = false;
    const fail = (err: Error): void => { if (!answered) { answered = true; onFailure(err); } };
    stream.once('response', (h) => { answered = true; onResponse(Number(h[':status'] ?? 0), stream); });
    stream.once('error', fail);
    // A stream refused or reset before any answer (GOAWAY, the server's stream limit) ends without 'response'.
    stream.once('close', () => fail(new Error(`stream closed with code ${stream.rstCode}`)));
    if (timeoutMs) stream.setTimeout(timeoutMs, () => stream.close(constants.NGHTTP2_CANCEL));
    if (payload) stream.end(payload);
    return () => { if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL); };
  }

  close(): void {
    this.closed = true;
    this.session?.destroy();
    this.session = undefined;
  }
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}
