// What a handler needs to know about the connection a request came on, alike for HTTP/1.1
// and HTTP/2. Over HTTP/2 many requests share one TLS connection (a session of streams),
// `req.socket` is a per-stream stand-in, and connection headers (Connection, Keep-Alive,
// Transfer-Encoding) do not exist: asking a client to move to a new connection is a GOAWAY.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { TLSSocket } from 'node:tls';

export function isHTTP2(req: IncomingMessage | Http2ServerRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2;
}

/**
 * The connection's own socket: the one object per TLS connection (its client certificate,
 * its addresses), shared by all of an HTTP/2 session's streams.
 */
export function connectionSocket(req: IncomingMessage): TLSSocket {
  return (sessionOf(req)?.socket ?? req.socket) as TLSSocket;
}

/** The HTTP/2 session a request's stream belongs to; undefined over HTTP/1.1. */
function sessionOf(req: IncomingMessage) {
  return (req as unknown as Partial<Http2ServerRequest>).stream?.session;
}

/**
 * Asks the client to take its next requests elsewhere once this answer is out:
 * `Connection: close` over HTTP/1.1; over HTTP/2 a graceful GOAWAY (the streams open on the
 * session finish, no new one starts), which is what Go's server makes of a handler's
 * `Connection: close`.
 */
export function closeConnectionAfter(req: IncomingMessage, res: ServerResponse): void {
  if (isHTTP2(req)) {
    const session = sessionOf(req);
    if (session && !session.closed && !session.destroyed) session.close();
    return;
  }
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/**
 * Over HTTP/2, stops a client still sending a body the answer did not need: once the
 * answer is out the stream is reset with NO_ERROR (RFC 9113 8.1), the session lives on.
 * Returns false over HTTP/1.1, where the connection itself has to go.
 */
export function stopUploadAfterAnswer(req: IncomingMessage, res: ServerResponse): boolean {
  if (!isHTTP2(req)) return false;
  const stream = (req as unknown as Http2ServerRequest).stream;
  const reset = (): void => { if (!stream.closed && !stream.destroyed) stream.close(constants.NGHTTP2_NO_ERROR); };
  if (responseOver(res)) reset();
  else res.once('finish', reset);
  return true;
}

/** Whether the response is over: written out, or its connection (or HTTP/2 stream) gone. */
export function responseOver(res: ServerResponse): boolean {
  if (res.writableFinished) return true;
  const stream = (res as unknown as Partial<Http2ServerResponse>).stream;
  return stream ? stream.destroyed || stream.closed : res.destroyed;
}

/**
 * Bytes written to this response and not yet taken by the client: the response's own
 * queue, plus (HTTP/1.1) the socket's; an HTTP/2 session's socket carries every stream's
 * bytes, so there the stream's queue alone tells whether this client keeps up.
 */
export function unsentBytes(req: IncomingMessage, res: ServerResponse): number {
  if (isHTTP2(req)) return res.writableLength;
  return res.writableLength + (res.socket?.writableLength ?? 0);
}
