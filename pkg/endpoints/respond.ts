// Serves a Koa app's middleware in place of Koa's own app.callback(): the context is Koa's
// (app.createContext) and the middleware runs as one chain (chain.ts), but the request
// is not handed to Koa's handleRequest, which hangs an on-finished listener on every
// response (an AsyncResource and ee-first's listeners on the response and its socket:
// 5-6 us of CPU a request) whose only work here would be Koa's ctx.onerror on a socket
// error, a no-op once the socket is gone. Koa's respond() is private, so the answer is
// written here, as it writes it for every body this server sets (no web Blob,
// ReadableStream or Response: a body that is none of a string, a Buffer or a Node stream
// is JSON). An error that escapes the middleware is answered as the error filter answers
// one (a Status, or the response dropped once it has started), never with Koa's plain
// "Internal Server Error". Koa's body setter, untouched, still destroys a stream body when
// its response closes first (a client gone from a watch).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { pipeline, Stream, type Readable } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { answerError } from './filters/errors.js';
import { composeChain } from './chain.js';
import { SelfWrittenBody } from './responsewriters/self-written-body.js';
import { goJson } from '../runtime/serializer/json/go-escapes.js';
import { shedSentHeaders } from '../util/net/http2-spent-headers.js';

/** Koa's response with the flag its body setter leaves for `ctx.body = null`. */
interface KoaResponse { _explicitNullBody?: boolean }

/** The app's request listener (what app.callback() returns), answering as described above. */
export function requestHandler(app: Koa, log?: Logger): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const chain = composeChain(app.middleware);
  return (req, res) => {
    const ctx = app.createContext(req, res);
    res.statusCode = 404;
    return chain(ctx).then(() => respond(ctx)).then(undefined, (err: unknown) => answerEscaped(ctx, err, log));
  };
}

function answerEscaped(ctx: Koa.Context, err: unknown, log: Logger | undefined): void {
  try {
    if (ctx.headerSent || !ctx.writable) {
      if (!ctx.res.writableEnded) ctx.res.destroy();
      return;
    }
    answerError(ctx, log, err);
    respond(ctx);
  } catch (again) {
    log?.error({ err: again, path: ctx.path, method: ctx.method }, 'answering an error failed; dropping the response');
    ctx.res.destroy();
  }
}

/**
 * Drops the parse of the request's URL that Koa's path and query getters leave on the
 * request (parseurl's `_parsedUrl`: a Url and its path and query strings, about five heap
 * objects). Node keeps a watch's request for the watch's life, and the filters have read
 * what they need by now; a later reader parses the URL again.
 */
function forgetParsedUrl(req: IncomingMessage): void {
  const cached = req as IncomingMessage & { _parsedUrl?: unknown };
  if (cached._parsedUrl !== undefined) cached._parsedUrl = undefined;
}

/** Koa's statuses.empty: answered without a body, whatever ctx.body holds. */
function isEmptyStatus(code: number): boolean {
  return code === 204 || code === 205 || code === 304;
}

/** What Koa's respond() does once the middleware has returned. */
function respond(ctx: Koa.Context): void {
  // Answered by its handler (an upgrade, a proxied or hijacked response, a body sent on an HTTP/2 stream).
  if (ctx.respond === false) return;
  const res = ctx.res;
  if (!ctx.writable) { res.end(); return; }
  const code = ctx.status;
  if (isEmptyStatus(code)) {
    // The setter strips Content-Type, Content-Length and Transfer-Encoding.
    ctx.body = null;
    res.end();
    return;
  }
  if (ctx.method === 'HEAD') {
    // The length a GET would have, as Koa keeps it (set by the body setter, or from a JSON body).
    if (!res.headersSent && !res.hasHeader('Content-Length')) {
      const { length } = ctx.response;
      if (Number.isInteger(length)) ctx.length = length;
    }
    res.end();
    return;
  }
  const body: unknown = ctx.body;
  if (body === null || body === undefined) {
    if ((ctx.response as unknown as KoaResponse)._explicitNullBody) {
      ctx.response.remove('Content-Type');
      ctx.response.remove('Transfer-Encoding');
      ctx.length = 0;
      res.end();
      return;
    }
    // No body set: the status as text (the reason phrase over HTTP/1.1, which has one).
    const text = ctx.req.httpVersionMajor >= 2 ? String(code) : ctx.message || String(code);
    if (!res.headersSent) {
      ctx.type = 'text';
      ctx.length = Buffer.byteLength(text);
    }
    res.end(text);
    return;
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) { res.end(body); return; }
  // Written and ended by its handler (a watch), not piped.
  if (body instanceof SelfWrittenBody) { forgetParsedUrl(ctx.req); shedSentHeaders(ctx.req as unknown as Http2ServerRequest, ctx.res as unknown as Http2ServerResponse); return; }
  if (body instanceof Stream) {
    // A failure destroys the response with it; the error has nowhere else to go.
    pipeline(body as unknown as Readable, res, () => undefined);
    return;
  }
  const json = goJson(body);
  if (!res.headersSent) ctx.length = Buffer.byteLength(json);
  res.end(json);
}
