// Our answer's bytes, for comparing after the client has them: a body in one piece is
// read as it is; a streamed one (large lists, gzip) is passed through to the client
// unchanged while a copy is kept, up to a bound (beyond it: no comparison).
import { PassThrough, Readable } from 'node:stream';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Context } from 'koa';

const gunzipAsync = promisify(gunzip);

/** Resolves once the response is written, with our body (undefined: too large or not bytes). */
export function captureAnswer(ctx: Context, maxBytes: number): Promise<Buffer | undefined> {
  const body: unknown = ctx.body;
  const gzipped = ctx.response.get('Content-Encoding') === 'gzip';
  const finished = new Promise<void>((resolve) => {
    if (ctx.res.writableFinished) resolve();
    else { ctx.res.once('finish', () => resolve()); ctx.res.once('close', () => resolve()); }
  });
  let copy: Promise<Buffer | undefined>;
  if (Buffer.isBuffer(body)) copy = Promise.resolve(body);
  else if (typeof body === 'string') copy = Promise.resolve(Buffer.from(body));
  else if (body instanceof Readable) {
    const tee = new PassThrough();
    const chunks: Buffer[] = [];
    let size = 0;
    copy = new Promise((resolve) => {
      tee.on('data', (c: Buffer) => { size += c.length; if (size <= maxBytes) chunks.push(c); });
      tee.on('end', () => resolve(size <= maxBytes ? Buffer.concat(chunks) : undefined));
      tee.on('error', () => resolve(undefined));
      tee.on('close', () => resolve(size <= maxBytes ? Buffer.concat(chunks) : undefined));
    });
    body.pipe(tee);
    ctx.body = tee;
  } else copy = Promise.resolve(undefined);
  return finished.then(() => copy).then(async (b) => (b && gzipped ? gunzipAsync(b) : b));
}
