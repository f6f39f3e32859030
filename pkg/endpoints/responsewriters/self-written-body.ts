// The body of a response its handler writes itself (a watch: frames go straight to the
// response). Koa and the filters that tell a stream by its body (audit's ResponseStarted)
// still see a stream; the request entry (respond.ts) leaves such a response
// to its handler instead of piping the body into it. stream.pipeline() there cost every
// watch its listeners and AbortController, and a watch whose client left (how most end) a
// premature-close error with its stack and an AbortSignal's DOMException, for a body that
// never carries a byte.
import { Stream } from 'node:stream';
import type Koa from 'koa';

/**
 * A stream in the old sense (an event emitter with pipe), not a Readable: what tells a
 * stream body is `instanceof Stream` and a pipe method, and a Readable's state and its
 * buffer arrays were about five heap objects a watch kept for its life and every major GC
 * marked (a replica holds about 11,000 at 1,000 nodes). Shadow capture copies only
 * Readables: a watch's body has no bytes of its own to compare.
 */
export class SelfWrittenBody extends Stream {
  /** Piping it writes nothing. */
  override pipe<T extends NodeJS.WritableStream>(dest: T): T {
    return dest;
  }

  /** Ends the response, then this body (its 'end', for whoever listens to it). */
  end(res: NodeJS.WritableStream): void {
    res.end();
    this.emit('end');
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
