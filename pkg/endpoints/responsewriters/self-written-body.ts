// The body of a response its handler writes itself (a watch: frames go straight to the
// response). Koa and the filters that tell a stream by its body (audit's ResponseStarted,
// shadow capture) still see a stream; the request entry (respond.ts) leaves such a response
// to its handler instead of piping the body into it. stream.pipeline() there cost every
// watch its listeners and AbortController, and a watch whose client left (how most end) a
// premature-close error with its stack and an AbortSignal's DOMException, for a body that
// never carries a byte.
import { Readable } from 'node:stream';
import type Koa from 'koa';

export class SelfWrittenBody extends Readable {
  override _read(): void {
    // Never read: the handler writes to the response directly.
  }

  /** Piping it writes nothing (shadow capture pipes a body to keep a copy). */
  override pipe<T extends NodeJS.WritableStream>(dest: T): T {
    return dest;
  }

  /** Ends the response, and this body as a read-to-the-end stream (for whoever listens to it). */
  end(res: NodeJS.WritableStream): void {
    this.push(null);
    this.resume();
    res.end();
  }
}

/**
 * Makes `body` the response's body as Koa's setter makes a stream one, for a response whose
 * status and Content-Type are set already, but without the setter's on-finished listener
 * that destroys the stream once the response ends: ee-first's listeners on the response and
 * its socket and an AsyncResource, about 40 heap objects that a watch kept for its whole
 * life (at 1,000 nodes a replica holds about 11,000 watches) and every major GC marked
 * again. This body needs no destroying: its handler ends it, and nothing reads it.
 */
export function setSelfWrittenBody(ctx: Koa.Context, body: SelfWrittenBody): void {
  (ctx.response as unknown as { _body: unknown })._body = body;
}
