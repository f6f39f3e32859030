import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { readPageAt } from './paged-read.js';
import { lowerBoundIn, SortedKeys } from './sorted-keys.js';

/** A repeatable random source, so a failing sequence can be run again. */
function seeded(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

/** Keys as the cache holds them: one long shared prefix, namespaces, names of several lengths. */
const keyOf = (n: number) => `/registry/configmaps/ns-${n % 7}/cm-${(n * 7919) % 100_003}`;

/** The structure against a sorted array holding the same keys: order, positions, searches. */
function expectSame(keys: SortedKeys, want: string[], probes: string[]): void {
  expect(keys.size).to.equal(want.length);
  expect([...keys]).to.deep.equal(want);
  for (let i = 0; i < want.length; i++) if (keys.at(i) !== want[i]) expect(keys.at(i), `at(${i}) in order`).to.equal(want[i]);
  for (let i = want.length - 1; i >= 0; i -= 37) expect(keys.at(i), `at(${i}) backwards`).to.equal(want[i]);
  for (const p of probes) expect(keys.lowerBound(p), `lowerBound(${p})`).to.equal(lowerBoundIn(want, p));
}

describe('pkg/storage/cacher/sorted-keys', () => {
  it('matches a sorted array through random inserts and removals, growing past many blocks and shrinking to none', () => {
    const rand = seeded(28);
    const keys = new SortedKeys();
    const want: string[] = [];
    const probes = ['', '/', '/registry/configmaps/ns-3/', '/registry/configmaps/ns-3/cm-5', '/registry/configmaps/ns-4', '~'];
    const phases: Array<[ops: number, insertShare: number]> = [[6000, 0.9], [4000, 0.5], [7000, 0.1], [3000, 0.7]];
    for (const [ops, insertShare] of phases) {
      for (let op = 0; op < ops; op++) {
        const key = keyOf(rand(20_000));
        const at = lowerBoundIn(want, key);
        const present = want[at] === key;
        if (rand(1000) < insertShare * 1000) {
          expect(keys.insert(key), `insert ${key}`).to.equal(!present);
          if (!present) want.splice(at, 0, key);
        } else {
          // Mostly keys that are there, so removals keep up with inserts.
          const victim = want.length && rand(4) ? want[rand(want.length)] : key;
          const i = lowerBoundIn(want, victim);
          const there = want[i] === victim;
          expect(keys.delete(victim), `delete ${victim}`).to.equal(there);
          if (there) want.splice(i, 1);
        }
        if (op % 500 === 0) expectSame(keys, want, [...probes, key, keyOf(rand(20_000))]);
      }
      expectSame(keys, want, [...probes, ...Array.from({ length: 200 }, () => keyOf(rand(20_000)))]);
    }
    for (const k of [...want]) keys.delete(k);
    expectSame(keys, [], probes);
    keys.insert('/a');
    expectSame(keys, ['/a'], ['', '/a', '/b']);
  });

  it('keeps keys listed in order in full blocks, and reads positions across block edges', () => {
    const keys = new SortedKeys();
    const want = Array.from({ length: 5000 }, (_, i) => `/registry/pods/ns/p-${String(i).padStart(6, '0')}`);
    for (const k of want) keys.insert(k);
    expectSame(keys, want, ['/registry/pods/ns/p-000511', '/registry/pods/ns/p-000512', '/registry/pods/ns/p-004999x', '/registry/pods/ns/q']);
    // A removal in the first block moves every later position by one.
    keys.delete(want[3]);
    want.splice(3, 1);
    expectSame(keys, want, ['/registry/pods/ns/p-001024']);
    keys.clear();
    expectSame(keys, [], ['/']);
  });

  it('serves continue pages that form the snapshot at their revision while keys are created and deleted between pages', () => {
    const rand = seeded(35);
    const obj = (key: string, rev: number) => ({ metadata: { name: key, resourceVersion: String(rev) } }) as unknown as KubeObject;
    const keys = new SortedKeys();
    const objects = new Map<string, KubeObject>();
    /** Every write after the snapshot: its key and the key's value before it. */
    const history: Array<{ key: string; before?: KubeObject }> = [];
    let rev = 0;
    const write = (key: string, remove: boolean) => {
      const before = objects.get(key);
      if (remove && !before) return;
      history.push({ key, before });
      rev++;
      if (remove) { objects.delete(key); keys.delete(key); } else { if (!before) keys.insert(key); objects.set(key, obj(key, rev)); }
    };
    const prefix = '/registry/configmaps/ns-2/';
    for (let n = 0; n < 3000; n++) write(keyOf(n), false);
    history.length = 0;
    const snapshot = [...keys].filter((k) => k.startsWith(prefix)).map((k) => objects.get(k)!.metadata!.resourceVersion);
    const got: string[] = [];
    let start = prefix;
    for (let page = 0; ; page++) {
      const then = new Map<string, KubeObject | undefined>();
      for (const e of history) if (!then.has(e.key)) then.set(e.key, e.before);
      const read = readPageAt({ keys, objects, then }, prefix, start, 25);
      got.push(...read.items.map((o) => o.metadata!.resourceVersion!));
      if (!read.lastKey) { expect(read.remaining).to.equal(0); break; }
      expect(read.remaining, `page ${page}: keys left then`).to.equal(snapshot.length - got.length);
      start = `${read.lastKey}\0`;
      // Between pages: new keys before and after the page's end, updates, and removals.
      for (let w = 0; w < 40; w++) write(keyOf(rand(6000)), rand(3) === 0);
    }
    expect(got).to.deep.equal(snapshot);
    expect(history.length, 'the pages were read across writes').to.be.greaterThan(500);
  });
});
