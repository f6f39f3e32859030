// How one simulated component reaches the API: over HTTP/2, one TLS connection carrying
// every request and watch of that identity, as client-go multiplexes a client's calls
// (a new connection when the server sent GOAWAY or the connection broke, and another
// beside it only while the first is at the server's stream limit, as Go's transport); or over
// HTTP/1.1, a keep-alive pool where every watch holds a connection of its own (the
// comparison: 21 connections per simulated node instead of one).
import { Agent, request as httpsRequest } from 'node:https';
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { Readable } from 'node:stream';
import { installCheapAsyncResourceBind } from '../../../pkg/util/async-resource-bind.js';

// Node 20's HTTP/2 client binds an AsyncResource for every request (ClientHttp2Session's
// request(), its PendingRequest), and the stock bind's deprecated accessor cost 9.4% of a
// kubelet thread (pkg/util/async-resource-bind.ts; the replicas dropped it in 19ba95b). Each
// thread has its own AsyncResource: every thread that loads this module installs it.
installCheapAsyncResourceBind();

export interface Identity { ca?: string; cert?: string; key?: string; token?: string }
export type Protocol = 'h2' | 'http/1.1';

/** A response being read: its status, its body as a stream, and its Retry-After header if any. */
export type OnResponse = (status: number, body: Readable, retryAfter: string | undefined) => void;

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
    }, (res) => onResponse(res.statusCode ?? 0, res, headerOf(res.headers['retry-after'])));
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

/** Before the server's SETTINGS arrive, a session is assumed to take this many streams (Go's default). */
const assumedMaxStreams = 250;

interface Session { s: ClientHttp2Session; open: number }

class Http2Transport implements Transport {
  /** Usually one; another is dialled only while every one is at the server's stream limit, as Go's transport does. */
  private sessions: Session[] = [];
  private closed = false;

  constructor(private readonly server: string, private readonly id: Identity) {}

  private usable(x: Session): boolean {
    return !x.s.closed && !x.s.destroyed && x.open < (x.s.remoteSettings?.maxConcurrentStreams ?? assumedMaxStreams);
  }

  private current(): Session {
    const found = this.sessions.find((x) => this.usable(x));
    if (found) return found;
    const next = connect(this.server, {
      ca: this.id.ca, cert: this.id.cert, key: this.id.key,
      settings: { initialWindowSize: streamWindow, enablePush: false },
      maxSessionMemory: 64,
    });
    const entry: Session = { s: next, open: 0 };
    next.once('connect', () => { try { next.setLocalWindowSize(connectionWindow); } catch { /* gone already */ } });
    // Streams see their own failures; a session's error or GOAWAY only means: dial again.
    next.on('error', () => undefined);
    const forget = (): void => { this.sessions = this.sessions.filter((x) => x !== entry); };
    next.once('goaway', forget);
    next.once('close', forget);
    this.sessions.push(entry);
    return entry;
  }

  send(method: string, path: string, headers: Record<string, string>, payload: Buffer | undefined,
    timeoutMs: number | undefined, onResponse: OnResponse, onFailure: (err: Error) => void, attempt = 1): () => void {
    if (this.closed) { onFailure(new Error('transport closed')); return () => undefined; }
    const h: Record<string, string> = { ':method': method, ':path': path };
    for (const k in headers) h[k.toLowerCase()] = headers[k]!;
    // Node ends DELETE (and GET) streams at once unless told a body follows.
    const o = { endStream: payload === undefined };
    let stream: ClientHttp2Stream;
    let on = this.current();
    try {
      stream = on.s.request(h, o);
    } catch {
      // The session was going away between the check and the request: once more, on a new one.
      on.s.close();
      this.sessions = this.sessions.filter((x) => x !== on);
      on = this.current();
      try { stream = on.s.request(h, o); } catch (again) { onFailure(again as Error); return () => undefined; }
    }
    const session = on;
    session.open++;
    let answered = false;
    let cancelled = false;
    let retry: (() => void) | undefined;
    stream.once('response', (x) => { answered = true; onResponse(Number(x[':status'] ?? 0), stream, headerOf(x['retry-after'])); });
    stream.on('error', () => undefined);
    stream.once('close', () => {
      session.open--;
      if (answered || cancelled) return;
      answered = true;
      // Refused before the server looked at it (its stream limit, reached before its SETTINGS
      // arrived, or a GOAWAY): sent again, as Go's transport retries REFUSED_STREAM.
      if (stream.rstCode === constants.NGHTTP2_REFUSED_STREAM && attempt < 5) {
        retry = this.send(method, path, headers, payload, timeoutMs, onResponse, onFailure, attempt + 1);
        return;
      }
      onFailure(new Error(`stream closed with code ${stream.rstCode}`));
    });
    if (timeoutMs) stream.setTimeout(timeoutMs, () => stream.close(constants.NGHTTP2_CANCEL));
    if (payload) stream.end(payload);
    return () => {
      cancelled = true;
      retry?.();
      if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    };
  }

  close(): void {
    this.closed = true;
    for (const x of this.sessions) x.s.destroy();
    this.sessions = [];
  }
}

function headerOf(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
