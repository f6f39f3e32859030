// The body of a response its handler writes itself (a watch: frames go straight to the
// response). Koa and the filters that tell a stream by its body (audit's ResponseStarted,
// shadow capture) still see a stream; the request entry (respond.ts) leaves such a response
// to its handler instead of piping the body into it. stream.pipeline() there cost every
// watch its listeners and AbortController, and a watch whose client left (how most end) a
// premature-close error with its stack and an AbortSignal's DOMException, for a body that
// never carries a byte.
import { Readable } from 'node:stream';

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
