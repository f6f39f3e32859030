// A whole (Buffer or string) response body over HTTP/2, sent with the stream's own API.
// Koa writes through Node's compatibility response, which opens every stream with
// waitForTrailers (so that addTrailers() can work): the body's last DATA frame then goes
// without END_STREAM, nghttp2 asks JavaScript for trailers, and END_STREAM follows in a
// send of a later event-loop turn. A client (client-go reads a body to its end) waits for
// that turn too: on a busy replica up to a second after the body had arrived (issue 28's
// 1,000-node run: Lease PUT and pod POST tails of 0.8-0.9 s). Sent here, the body's last
// frame carries END_STREAM itself. Nothing here sends trailers, as kube-apiserver does not.
import type { ServerHttp2Stream } from 'node:http2';
import type { Context } from 'koa';

/** The HTTP/2 stream of a request, when it came over HTTP/2. */
function http2Stream(ctx: Context): ServerHttp2Stream | undefined {
  return ctx.req.httpVersionMajor === 2 ? (ctx.res as unknown as { stream?: ServerHttp2Stream }).stream : undefined;
}

/**
 * For an HTTP/2 request whose answer has not started: sends ctx's status and headers on the
 * stream itself (Koa's body setter has set Content-Type and Content-Length already) and
 * returns the stream to write the body to. Undefined otherwise (HTTP/1.1, a stream already
 * answered or closed): the caller writes through the response.
 */
export function respondOnHttp2Stream(ctx: Context): ServerHttp2Stream | undefined {
  const stream = http2Stream(ctx);
  if (!stream || stream.headersSent || stream.destroyed || stream.closed) return undefined;
  // getHeaders() makes a new object: the status is added to it (a spread with a member
  // added costs about 1 us in Node 20).
  const headers = ctx.res.getHeaders();
  headers[':status'] = ctx.status;
  stream.respond(headers);
  return stream;
}

/**
 * Whether Koa's respond() would still write ctx's body: the response is Koa's to send, open,
 * and neither HEAD nor a status without a body. Whoever sends a body in Koa's place asks this.
 */
export function koaWouldSendBody(ctx: Context): boolean {
  return ctx.respond !== false && ctx.writable && ctx.method !== 'HEAD' && ctx.status !== 204 && ctx.status !== 205 && ctx.status !== 304;
}

/**
 * Sends ctx.body itself when it is a Buffer or a string on an HTTP/2 request that Koa would
 * answer with it, and tells Koa not to; anything else (HTTP/1.1, HEAD, a stream body, no
 * body, a response already started or closed) is left to Koa.
 */
export function sendHttp2Body(ctx: Context): void {
  const body = ctx.body as unknown;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
  if (!koaWouldSendBody(ctx)) return;
  const stream = respondOnHttp2Stream(ctx);
  if (!stream) return;
  ctx.respond = false;
  stream.end(body);
}
