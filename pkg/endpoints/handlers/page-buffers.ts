// Buffers for list pages joined into one write (joinedList), reused once their response has
// gone out. Why: a buffer Node allocates lives outside V8's heap, and V8 counts that memory
// and starts a full mark-compact of the heap every few tens of megabytes of it. A client
// paging through 10,000 objects made 4.6 MB of fresh page buffers per list: 40 paged lists
// of 10,000 cost the replica 3-9 mark-compacts (pauses of 7-12 ms beside incremental marking
// spread over the pages around them), where the same lists unpaginated, whose pieces are
// the objects' cached bytes, cost none; with the page buffers reused, 0-1.
import type { Writable } from 'node:stream';

/**
 * A body up to this size is handed to the socket in one turn. Batch by batch, each 16 KB
 * write waited for a turn of its own (a 'drain' or an immediate): a page of 500 objects
 * (about 225 KB) went out in 14 writes through the event loop and the kernel, its last
 * byte 0.1-1.2 ms later than written at once. Encrypting 256 KB holds the loop about as
 * long as one encoded batch does; beyond it, backpressure decides as before.
 */
export const wholeWriteBytes = 256 * 1024;

/** Every reusable buffer is this long: a page up to the size written in one turn. */
const slabBytes = wholeWriteBytes;
/** A page below this is joined into a buffer of its own: it would hold a whole slab while it waits. */
const minPooledBytes = slabBytes / 4;
/** Buffers kept for reuse; more pages in flight at once get buffers of their own. */
const maxSpare = 8;

const spare: Buffer[] = [];
/** A joined page (a view of the first bytes of a slab) to its slab, until it is handed to a response. */
const slabOf = new WeakMap<Buffer, Buffer>();

/** `pieces` (`size` bytes in all) copied into one buffer, a reused one when the page is large. */
export function joinPieces(pieces: readonly Uint8Array[], size: number): Buffer {
  if (size < minPooledBytes || size > slabBytes) return Buffer.concat(pieces, size);
  const slab = spare.pop() ?? Buffer.allocUnsafeSlow(slabBytes);
  let at = 0;
  for (const p of pieces) {
    slab.set(p, at);
    at += p.length;
  }
  const page = slab.subarray(0, size);
  slabOf.set(page, slab);
  return page;
}

/**
 * When `body` is one joined page, its buffer is reused once `res` finishes: every byte has
 * then been handed to the connection (for TLS, encrypted), so nothing reads it any more. A
 * response closed before it finished may leave a write pending: its buffer is left to the
 * garbage collector. Only for a writer that finishes so (an HTTP/1.1 response); a page is
 * handed over once.
 */
export function reuseWhenFinished(res: Writable, body: readonly Buffer[]): void {
  const slab = body.length === 1 ? slabOf.get(body[0]!) : undefined;
  if (!slab) return;
  slabOf.delete(body[0]!);
  res.once('finish', () => {
    if (spare.length < maxSpare) spare.push(slab);
  });
}
