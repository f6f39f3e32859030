import { expect } from 'chai';
import { EventRing, upstreamRingSizing } from './event-ring.js';

/** A ring on a clock the test moves, with upstream's bounds unless narrowed. */
function ringAt(sizing: { lowerBound?: number; upperBound?: number } = {}) {
  let t = 0;
  const ring = new EventRing<{ rev: number }>({ ...sizing, now: () => t });
  let rev = 0;
  return {
    ring,
    tick: (ms: number) => { t += ms; },
    /** Pushes `n` events, `everyMs` apart. */
    push: (n: number, everyMs = 0) => { for (let i = 0; i < n; i++) { ring.push({ rev: ++rev }); t += everyMs; } },
    revs: (after = 0) => [...ring.after(after)].map((e) => e.rev),
  };
}

describe('pkg/storage/cacher/event-ring', () => {
  it('keeps upstream v1.28\'s bounds and fresh duration', () => {
    expect(upstreamRingSizing).to.include({ lowerBound: 100, upperBound: 102_400, freshMs: 75_000 });
    expect(ringAt().ring.capacity).to.equal(100);
  });

  it('doubles while the oldest event of a full ring is younger than 75 s, up to the upper bound', () => {
    const r = ringAt({ upperBound: 800 });
    r.push(100, 10); // 1 s of events: full
    expect(r.ring.capacity).to.equal(100);
    expect(r.ring.lastDropped).to.equal(undefined);
    r.push(1, 10);
    expect(r.ring.capacity).to.equal(200);
    expect(r.ring.size).to.equal(101);
    r.push(1000, 10);
    expect(r.ring.capacity).to.equal(800);
    expect(r.ring.size).to.equal(800);
    // The newest 800 of 1,101 events, oldest first.
    expect(r.revs()).to.deep.equal(Array.from({ length: 800 }, (_, i) => 302 + i));
    expect(r.ring.lastDropped).to.equal(301);
    expect(r.ring.oldest).to.deep.equal({ rev: 302 });
  });

  it('does not grow when the full ring already spans 75 s: it drops its oldest event', () => {
    const r = ringAt();
    r.push(100, 1000); // 100 s of events
    r.push(1);
    expect(r.ring.capacity).to.equal(100);
    expect(r.ring.lastDropped).to.equal(1);
    expect(r.revs()[0]).to.equal(2);
  });

  it('halves once even its newest quarter is older than 75 s, keeping the newest events, down to the lower bound', () => {
    const r = ringAt();
    r.push(400, 1); // a burst: grows to 400
    expect(r.ring.capacity).to.equal(400);
    r.tick(76_000);
    r.push(1);
    expect(r.ring.capacity).to.equal(200);
    expect(r.revs()).to.deep.equal(Array.from({ length: 200 }, (_, i) => 202 + i));
    expect(r.ring.lastDropped).to.equal(201);
    r.tick(76_000);
    r.push(1);
    expect(r.ring.capacity).to.equal(100);
    r.tick(76_000);
    r.push(1);
    expect(r.ring.capacity).to.equal(100);
    expect(r.revs()).to.deep.equal(Array.from({ length: 100 }, (_, i) => 304 + i));
  });

  it('keeps its size while the newest quarter is fresh, though the oldest events are stale', () => {
    const r = ringAt({ upperBound: 400 });
    r.push(400, 100); // 40 s of events
    r.tick(40_000); // the oldest are 80 s old, the newest quarter 50 s
    r.push(1);
    expect(r.ring.capacity).to.equal(400);
    expect(r.ring.lastDropped).to.equal(1);
  });

  it('finds the events after a revision by search, and starts afresh when cleared', () => {
    const r = ringAt({ lowerBound: 5, upperBound: 5 });
    r.push(8, 100_000);
    expect(r.revs()).to.deep.equal([4, 5, 6, 7, 8]);
    expect(r.revs(6)).to.deep.equal([7, 8]);
    expect(r.revs(2)).to.deep.equal([4, 5, 6, 7, 8]);
    expect(r.revs(8)).to.deep.equal([]);
    r.ring.clear();
    expect(r.ring.size).to.equal(0);
    expect(r.ring.lastDropped).to.equal(undefined);
    expect(r.ring.oldest).to.equal(undefined);
    r.push(2);
    expect(r.revs()).to.deep.equal([9, 10]);
  });
});
