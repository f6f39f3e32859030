import { expect } from 'chai';
import { Writable } from 'node:stream';
import { joinPieces, reuseWhenFinished, wholeWriteBytes } from './page-buffers.js';

const piecesOf = (total: number, tag: string): Buffer[] => {
  const out: Buffer[] = [];
  for (let left = total, i = 0; left > 0; i++) {
    const p = Buffer.from(`${tag}-${i};`.padEnd(Math.min(left, 700), 'x').slice(0, Math.min(left, 700)));
    out.push(p);
    left -= p.length;
  }
  return out;
};
const sizeOf = (pieces: Buffer[]): number => pieces.reduce((n, p) => n + p.length, 0);
/** A page of about `total` bytes joined, beside the bytes it should hold. */
const joined = (total: number, tag: string): { page: Buffer; want: Buffer } => {
  const pieces = piecesOf(total, tag);
  return { page: joinPieces(pieces, sizeOf(pieces)), want: Buffer.concat(pieces) };
};
const sink = (): Writable => new Writable({ write(_chunk, _enc, cb) { cb(); } });
const finished = (w: Writable): Promise<void> => new Promise((resolve) => { w.once('finish', () => resolve()); w.end(); });

describe('page buffers (joined list pages)', () => {
  it('joins pieces into their bytes, small and large pages alike', () => {
    for (const total of [10, 20_000, 200_000, wholeWriteBytes]) {
      const { page, want } = joined(total, `t${total}`);
      expect(page.length).to.equal(total);
      expect(page.equals(want)).to.equal(true);
    }
  });

  it('reuses a large page\'s buffer once its response has finished, not before', async () => {
    const { page, want } = joined(200_000, 'first');
    const res = sink();
    reuseWhenFinished(res, [page]);
    // Not finished yet: the next page gets memory of its own, and the first stays intact.
    expect(joined(150_000, 'meanwhile').page.buffer).to.not.equal(page.buffer);
    expect(page.equals(want)).to.equal(true);
    await finished(res);
    const next = joined(180_000, 'next');
    expect(next.page.buffer).to.equal(page.buffer);
    expect(next.page.equals(next.want)).to.equal(true);
  });

  it('leaves a buffer whose response closed before finishing to the collector, and pools no small page', async () => {
    const { page } = joined(100_000, 'closed');
    const res = sink();
    reuseWhenFinished(res, [page]);
    res.destroy();
    await new Promise((resolve) => res.once('close', resolve));
    const smallPage = joined(2_000, 'small').page;
    const res2 = sink();
    reuseWhenFinished(res2, [smallPage]);
    await finished(res2);
    for (let i = 0; i < 10; i++) {
      const again = joined(100_000, `again-${i}`).page;
      expect(again.buffer).to.not.equal(page.buffer);
      expect(again.buffer).to.not.equal(smallPage.buffer);
    }
  });

  it('hands a page over once: a second response finishing does not put its buffer back twice', async () => {
    const { page } = joined(120_000, 'once');
    const a = sink();
    const b = sink();
    reuseWhenFinished(a, [page]);
    reuseWhenFinished(b, [page]);
    await finished(a);
    await finished(b);
    const one = joined(100_000, 'one').page;
    const two = joined(100_000, 'two').page;
    expect([one.buffer === page.buffer, two.buffer === page.buffer].filter(Boolean)).to.have.length(1);
  });
});
