// HTTPS requests to a test server with explicit TLS material, returning the status,
// headers and a parsed body; and a reader for watch streams (one JSON event per line).
import * as https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { decodeWatchFrames } from '../../pkg/runtime/serializer/protobuf/watch.js';

export interface TlsCredentials {
  /** PEM CA bundle to trust; without it, the server certificate is not checked. */
  ca?: string;
  cert?: string;
  key?: string;
  /** Sent as "Authorization: Bearer <token>". */
  token?: string;
}

export interface RequestOptions extends TlsCredentials {
  method?: string;
  headers?: Record<string, string>;
  /** Objects are sent as JSON (Content-Type application/json unless given); strings and Buffers as they are. */
  body?: unknown;
  timeoutMs?: number;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** JSON bodies parsed; anything else as text. */
  body: T;
  text: string;
  raw: Buffer;
}

function prepare(url: string, opts: RequestOptions): { req: https.RequestOptions; payload?: Buffer } {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const has = (h: string): boolean => Object.keys(headers).some((k) => k.toLowerCase() === h);
  if (opts.token && !has('authorization')) headers['Authorization'] = `Bearer ${opts.token}`;
  let payload: Buffer | undefined;
  if (opts.body !== undefined) {
    if (Buffer.isBuffer(opts.body)) payload = opts.body;
    else if (typeof opts.body === 'string') payload = Buffer.from(opts.body);
    else {
      payload = Buffer.from(JSON.stringify(opts.body));
      if (!has('content-type')) headers['Content-Type'] = 'application/json';
    }
    headers['Content-Length'] = String(payload.length);
  }
  const u = new URL(url);
  return {
    payload,
    req: {
      method: opts.method ?? 'GET',
      hostname: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      headers,
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      rejectUnauthorized: opts.ca !== undefined,
      agent: false,
    },
  };
}

function open(url: string, opts: RequestOptions): Promise<IncomingMessage> {
  const { req, payload } = prepare(url, opts);
  return new Promise((resolve, reject) => {
    const r = https.request(req, resolve);
    r.setTimeout(opts.timeoutMs ?? 30_000, () => r.destroy(new Error(`${req.method} ${url}: timed out`)));
    r.once('error', reject);
    r.end(payload);
  });
}

export async function request<T = unknown>(url: string, opts: RequestOptions = {}): Promise<HttpResponse<T>> {
  const res = await open(url, opts);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const text = raw.toString('utf8');
  let body: unknown = text;
  if (/json/i.test(res.headers['content-type'] ?? '') && text !== '') {
    try { body = JSON.parse(text); } catch { /* leave as text */ }
  }
  return { status: res.statusCode ?? 0, headers: res.headers, body: body as T, text, raw };
}

export interface WatchEvent<T = unknown> {
  type: string;
  object: T;
}

export interface WatchStream<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** The next event; rejects when none arrives within timeoutMs or the stream ends. */
  next(timeoutMs?: number): Promise<WatchEvent<T>>;
  /** Events already received and not yet taken by next(). */
  pending(): WatchEvent<T>[];
  /** True once the server ended the stream. */
  ended(): boolean;
  close(): void;
}

export class HttpError extends Error {
  constructor(readonly status: number, readonly text: string, url: string) {
    super(`${url}: HTTP ${status}: ${text}`);
  }
}

/**
 * Opens a streaming request (e.g. ?watch=1) and splits it into JSON lines, or into
 * length-prefixed frames (decoded to JSON form) when the server answers in protobuf. A response
 * with status 400 or more is read whole and thrown as an HttpError.
 */
export async function watch<T = unknown>(url: string, opts: RequestOptions = {}): Promise<WatchStream<T>> {
  const res = await open(url, { timeoutMs: 0, ...opts });
  if ((res.statusCode ?? 0) >= 400) {
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    throw new HttpError(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), url);
  }
  const queue: WatchEvent<T>[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  let buf: Buffer = Buffer.alloc(0);
  const wake = (): void => { for (const w of waiters.splice(0)) w(); };
  const protobufFrames = /vnd\.kubernetes\.protobuf/.test(res.headers['content-type'] ?? '');
  res.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (protobufFrames) {
      const { events, rest } = decodeWatchFrames(buf);
      queue.push(...(events as WatchEvent<T>[]));
      buf = rest;
    } else {
      let nl: number;
      while ((nl = buf.indexOf(0x0a)) >= 0) {
        const line = buf.subarray(0, nl).toString('utf8').trim();
        buf = buf.subarray(nl + 1);
        if (line) queue.push(JSON.parse(line) as WatchEvent<T>);
      }
    }
    wake();
  });
  const finish = (): void => { done = true; wake(); };
  res.once('end', finish);
  res.once('close', finish);
  res.once('error', finish);
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    pending: () => queue.splice(0),
    ended: () => done,
    close: () => res.destroy(),
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        if (done) throw new Error(`watch ${url}: stream ended`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`watch ${url}: no event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => { clearTimeout(t); resolve(); });
        });
      }
      return queue.shift()!;
    },
  };
}
