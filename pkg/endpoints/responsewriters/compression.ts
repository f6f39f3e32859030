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

/** Whether Accept-Encoding names gzip: as upstream, a comma-separated token that is exactly `gzip` once trimmed. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((token) => token.trim() === 'gzip');
}

/**
 * Sets `body` (`length` bytes, whole or as a stream) as the response, gzip-compressed when
 * the request accepts it and the body is over the threshold; otherwise with its length.
 */
export function setApiBody(ctx: Context, body: Buffer | string | Readable, length: number): void {
  if (length <= gzipThresholdBytes || !acceptsGzip(ctx.get('accept-encoding')) || !featureGates().enabled('APIResponseCompression')) {
    ctx.body = body;
    if (body instanceof Readable) ctx.length = length;
    return;
  }
  const gzip = createGzip({ level: gzipLevel });
  let sent = 0;
  const counted = new Transform({ transform(chunk: Buffer, _enc, done) { sent += chunk.length; done(null, chunk); } });
  ctx.state[compressedBytesKey] = () => sent;
  // One pipeline, so a client that goes away (Koa then destroys the body it was given)
  // tears down the compressor and the source too, instead of leaving them waiting to drain.
  const ignore = (): void => {};
  if (body instanceof Readable) {
    pipeline(body, gzip, counted, ignore);
  } else {
    pipeline(gzip, counted, ignore);
    gzip.end(body);
  }
  ctx.set('Content-Encoding', 'gzip');
  ctx.vary('Accept-Encoding');
  ctx.body = counted;
}

/** The compressed size of a response setApiBody compressed, once sent. */
export function compressedBytes(ctx: Context): number | undefined {
  const count = ctx.state[compressedBytesKey] as (() => number) | undefined;
  return count?.();
}
