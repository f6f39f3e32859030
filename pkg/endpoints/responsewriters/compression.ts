// Upstream's response compression (the APIResponseCompression gate, beta and on in v1.28):
// an API object response whose encoded body is over 128 KiB goes out gzip-compressed at
// level 1 when the request's Accept-Encoding names gzip, as every client-go program and
// kubectl asks (Go's transport adds the header and decompresses by itself). Large lists
// then cross the network at a fraction of their size, and zlib runs on libuv's thread
// pool: the event loop, which serves every other request, encrypts and writes the
// compressed bytes only. Watch streams and small bodies are sent as they are, as upstream.
import type { Context } from 'koa';
import { pipeline, Readable, Transform } from 'node:stream';
import { createGzip } from 'node:zlib';
import { featureGates } from '../../features/gates.js';

/** Upstream's defaultGzipThresholdBytes: bodies up to this size are never compressed. */
export const gzipThresholdBytes = 128 * 1024;
/** Upstream's defaultGzipContentEncodingLevel (kubernetes#112296: least CPU, similar ratio). */
const gzipLevel = 1;

const compressedBytesKey = 'compressedBytes';

/** A response body, ready to be sent as it is or compressed. */
export interface ApiBody {
  /** Its size in bytes. */
  length: number;
  /** The body as sent uncompressed (a stream declares `length`). */
  plain(): Buffer | string | Readable;
  /** Its bytes in order, a few KB per chunk: what the compressor is fed. */
  chunks(): Iterable<Buffer>;
}

/** Whether Accept-Encoding names gzip: as upstream, a comma-separated token that is exactly `gzip` once trimmed. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((token) => token.trim() === 'gzip');
}

/** Sets `body` as the response: gzip-compressed when the request accepts it and it is over the threshold. */
export function setApiBody(ctx: Context, body: ApiBody): void {
  if (body.length <= gzipThresholdBytes || !acceptsGzip(ctx.get('accept-encoding')) || !featureGates().enabled('APIResponseCompression')) {
    const plain = body.plain();
    ctx.body = plain;
    if (plain instanceof Readable) ctx.length = body.length;
    return;
  }
  let sent = 0;
  ctx.state[compressedBytesKey] = () => sent;
  ctx.set('Content-Encoding', 'gzip');
  ctx.vary('Accept-Encoding');
  ctx.body = gzipStream(body.chunks(), (n) => { sent += n; });
}

/** The gzip stream of `chunks`; `count` is told the size of each compressed piece made. */
export function gzipStream(chunks: Iterable<Buffer>, count: (bytes: number) => void = () => undefined): Readable {
  const counted = new Transform({ transform(chunk: Buffer, _enc, done) { count(chunk.length); done(null, chunk); } });
  // One pipeline: a client that goes away (Koa then destroys the body it was given) tears
  // down the compressor and the source too, instead of leaving them waiting to drain.
  pipeline(Readable.from(chunks, { objectMode: false }), createGzip({ level: gzipLevel }), counted, () => undefined);
  return counted;
}

/** The compressed size of a response setApiBody compressed, once sent. */
export function compressedBytes(ctx: Context): number | undefined {
  const count = ctx.state[compressedBytesKey] as (() => number) | undefined;
  return count?.();
}
