import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, gzipStream } from './compression.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe('response compression', () => {
  it('reads Accept-Encoding as upstream: a token exactly "gzip" once trimmed', () => {
    expect(acceptsGzip('gzip')).to.equal(true);
    expect(acceptsGzip('deflate, gzip')).to.equal(true);
    expect(acceptsGzip(' gzip ,br')).to.equal(true);
    for (const no of [undefined, '', 'deflate', 'gzip;q=1.0', 'GZIP', 'x-gzip', '*']) expect(acceptsGzip(no), String(no)).to.equal(false);
  });

  it('gzips the chunks in order, and counts the compressed bytes', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => Buffer.from(`{"item":${i},"pad":"${'x'.repeat(2000)}"},`));
    let counted = 0;
    const out = await readAll(gzipStream(chunks, (n) => { counted += n; }));
    expect(gunzipSync(out).equals(Buffer.concat(chunks))).to.equal(true);
    expect(counted).to.equal(out.length);
    expect(out.length).to.be.lessThan(Buffer.concat(chunks).length / 10);
  });
});
