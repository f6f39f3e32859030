// The scheduler stand-in's rate limit behaves as client-go's token bucket: a full
// bucket's burst goes at once, then calls go at the rate, in the order they asked.
import { expect } from 'chai';
import { clock } from './client.js';
import { TokenBucket } from './token-bucket.js';

describe('cluster load: TokenBucket (client-go\'s client-side rate limit)', () => {
  it('lets a burst through at once, then paces the rest at qps, in order', async () => {
    // From before the bucket exists: tokens it accrues before the calls shorten their waits by as much.
    const t0 = clock();
    const bucket = new TokenBucket(100, 5);
    const done: Array<{ i: number; at: number }> = [];
    await Promise.all(Array.from({ length: 15 }, (_x, i) => bucket.take().then(() => done.push({ i, at: clock() - t0 }))));
    expect(done.map((d) => d.i)).to.deep.equal(Array.from({ length: 15 }, (_x, i) => i));
    // The burst: no wait beyond a timer tick.
    for (const d of done.slice(0, 5)) expect(d.at, `call ${d.i}`).to.be.below(30);
    // Ten more at 100/s: the tenth waits its 100 ms. Load may make timers late; they may also
    // look up to ~2 ms early on performance.now(), because libuv counts a timer from its loop
    // clock, whole milliseconds read at the start of the loop's turn (CI saw 98.5 ms).
    expect(done[14]!.at).to.be.at.least(97);
    expect(done[5]!.at).to.be.at.least(7);
  });

  it('refills while idle, up to the burst and no more', async () => {
    const bucket = new TokenBucket(200, 3);
    for (let i = 0; i < 3; i++) await bucket.take();
    await new Promise((r) => setTimeout(r, 100)); // 20 tokens' worth of time, 3 kept
    const t0 = clock();
    await Promise.all([bucket.take(), bucket.take(), bucket.take()]);
    expect(clock() - t0).to.be.below(30);
    await bucket.take(); // the fourth waits for a token: 5 ms at 200/s
    expect(clock() - t0).to.be.at.least(3);
  });
});
