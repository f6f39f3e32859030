import { expect } from 'chai';
import { Deadlines, type Timed } from './watch-deadlines.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** An entry that records when it fired and, `again` times, comes back `every` ms later. */
function entry(name: string, due: number, log: string[], again = 0, every = 0, d?: Deadlines): Timed {
  let left = again;
  const t: Timed = {
    due, heapIndex: -1,
    fire(now) {
      log.push(name);
      expect(now).to.be.at.least(t.due);
      if (left-- > 0) { t.due += every; d!.add(t); }
    },
  };
  return t;
}

describe('pkg/endpoints/handlers/watch-deadlines', () => {
  it('fires entries in the order of their moments, on one timer, and not those removed', async () => {
    const d = new Deadlines();
    const log: string[] = [];
    const now = performance.now();
    const entries = [70, 10, 50, 30, 90, 20, 60].map((ms) => entry(`e${ms}`, now + ms, log));
    for (const e of entries) d.add(e);
    expect(d.size).to.equal(7);
    d.remove(entries[2]!);
    d.remove(entries[2]!);
    expect(entries[2]!.heapIndex).to.equal(-1);
    await sleep(150);
    expect(log).to.deep.equal(['e10', 'e20', 'e30', 'e60', 'e70', 'e90']);
    expect(d.size).to.equal(0);
    for (const e of entries) expect(e.heapIndex).to.equal(-1);
  });

  it('takes an entry back for a later moment from its own fire, and moves one added again', async () => {
    const d = new Deadlines();
    const log: string[] = [];
    const now = performance.now();
    const ticking = entry('tick', now + 10, log, 2, 20, d);
    const late = entry('late', now + 200, log);
    d.add(ticking);
    d.add(late);
    // Moved earlier while in the heap: fires at its new moment, once.
    late.due = now + 40;
    d.add(late);
    await sleep(120);
    expect(log).to.deep.equal(['tick', 'tick', 'late', 'tick']);
    expect(d.size).to.equal(0);
  });

  it('keeps the heap ordered through many adds and removes', () => {
    const d = new Deadlines();
    const base = performance.now() + 60_000;
    const entries = Array.from({ length: 500 }, (_x, i) => entry(String(i), base + ((i * 7919) % 1000), []));
    for (const e of entries) d.add(e);
    for (const e of entries.filter((_e, i) => i % 3 === 0)) d.remove(e);
    // The heap property, read through the entries' own indexes.
    const inHeap = entries.filter((e) => e.heapIndex >= 0).sort((a, b) => a.heapIndex - b.heapIndex);
    expect(inHeap.map((e) => e.heapIndex)).to.deep.equal(inHeap.map((_e, i) => i));
    for (const e of inHeap) if (e.heapIndex > 0) expect(inHeap[(e.heapIndex - 1) >> 1]!.due).to.be.at.most(e.due);
    for (const e of inHeap) d.remove(e);
    expect(d.size).to.equal(0);
  });
});
