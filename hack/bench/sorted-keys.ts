// Micro-benchmark of the watch cache's sorted keys (pkg/storage/cacher/sorted-keys.ts)
// against the one sorted array it replaced (insert and remove by splice): CPU per insert,
// removal, lowerBound and in-order read at 1,000 / 10,000 / 100,000 keys, min of several
// rounds. Keys are made as the cache makes them (a Buffer's toString, among other
// allocations, in random order), so they lie scattered in the heap as they do there.
// Calls back to back keep the structure in the CPU's caches, where a server's write finds
// it after half a millisecond of other work: the "cold" rows time each call alone (median
// wall time, as one call is below process.cpuUsage's resolution) after reading 16 MiB.
// Run: `node dist/hack/bench/sorted-keys.js [--sizes=1000,10000,30000,100000] [--ops=2000] [--rounds=9]`.
import { loadavg } from 'node:os';
import { lowerBoundIn, SortedKeys } from '../../pkg/storage/cacher/sorted-keys.js';

const argOf = (name: string, dflt: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const sizes = argOf('sizes', '1000,10000,30000,100000').split(',').map(Number);
const ops = Number(argOf('ops', '2000'));
const rounds = Number(argOf('rounds', '9'));

interface Keys { insert(k: string): void; delete(k: string): void; lowerBound(k: string): number; at(i: number): string; readonly size: number }

/** The replaced structure: one sorted array. */
class SortedArray implements Keys {
  private keys: string[] = [];
  get size(): number { return this.keys.length; }
  insert(k: string): void { this.keys.splice(lowerBoundIn(this.keys, k), 0, k); }
  delete(k: string): void { const i = lowerBoundIn(this.keys, k); if (this.keys[i] === k) this.keys.splice(i, 1); }
  lowerBound(k: string): number { return lowerBoundIn(this.keys, k); }
  at(i: number): string { return this.keys[i]; }
}

let junk: unknown[] = [];
function makeKey(n: number): string {
  // Something else allocated between keys, as a decoded object is in the cache.
  junk.push({ n, s: `x${n}` });
  if (junk.length > 1000) junk = [];
  return Buffer.from(`/registry/configmaps/bench-ns-${n % 10}/bench-cm-${(n * 2654435761) % 4294967291}`).toString();
}

function shuffled<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [xs[i], xs[j]] = [xs[j], xs[i]]; }
  return xs;
}

/** CPU microseconds per call of `f` over `n` calls. */
function cpuPer(n: number, f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / n;
}

const thrash = new Int32Array(4 << 20);
let thrashSink = 0;
/** Median nanoseconds of one call of `f(x)` for each x, with the caches refilled by other data before each. */
function coldPer<T>(xs: T[], f: (x: T) => void): number {
  const ns: number[] = [];
  for (const x of xs) {
    for (let i = 0; i < thrash.length; i += 16) thrashSink += thrash[i]++;
    const t0 = process.hrtime.bigint();
    f(x);
    ns.push(Number(process.hrtime.bigint() - t0));
  }
  return ns.sort((a, b) => a - b)[ns.length >>> 1] / 1000;
}

function measure(make: () => Keys, size: number): Record<string, number> {
  const base = shuffled(Array.from({ length: size }, (_, i) => makeKey(i)));
  const s = make();
  for (const k of base) s.insert(k);
  const best: Record<string, number> = { insert: Infinity, delete: Infinity, lowerBound: Infinity, readInOrder: Infinity,
    coldInsert: Infinity, coldDelete: Infinity, coldLowerBound: Infinity };
  for (let r = 0; r < rounds; r++) {
    const fresh = Array.from({ length: ops }, (_, i) => makeKey(size + r * ops + i));
    const probes = Array.from({ length: ops }, () => base[Math.floor(Math.random() * size)]);
    best.insert = Math.min(best.insert, cpuPer(ops, () => { for (const k of fresh) s.insert(k); }));
    let sink = 0;
    best.lowerBound = Math.min(best.lowerBound, cpuPer(ops, () => { for (const k of probes) sink += s.lowerBound(k); }));
    best.delete = Math.min(best.delete, cpuPer(ops, () => { for (const k of shuffled(fresh)) s.delete(k); }));
    // A list's slice: 500 keys from a random position, per key read.
    const from = s.lowerBound(probes[0]);
    best.readInOrder = Math.min(best.readInOrder, cpuPer(500 * 20, () => {
      for (let rep = 0; rep < 20; rep++) for (let i = from, end = Math.min(from + 500, s.size); i < end; i++) sink += s.at(i).length;
    }));
    const few = fresh.slice(0, 200);
    best.coldInsert = Math.min(best.coldInsert, coldPer(few, (k) => s.insert(k)));
    best.coldLowerBound = Math.min(best.coldLowerBound, coldPer(probes.slice(0, 200), (k) => { sink += s.lowerBound(k); }));
    best.coldDelete = Math.min(best.coldDelete, coldPer(few, (k) => s.delete(k)));
    if (sink === -1 || thrashSink === -1) console.log(sink);
  }
  return best;
}

console.log(`sorted keys, CPU us per op (min of ${rounds} rounds of ${ops}), load ${loadavg()[0].toFixed(2)}`);
console.log('keys     op           array     blocks    blocks/array');
for (const size of sizes) {
  // Each twice, alternating, so neither always runs on a colder heap.
  const a1 = measure(() => new SortedArray(), size);
  const b1 = measure(() => new SortedKeys(), size);
  const a2 = measure(() => new SortedArray(), size);
  const b2 = measure(() => new SortedKeys(), size);
  for (const op of Object.keys(a1)) {
    const a = Math.min(a1[op], a2[op]);
    const b = Math.min(b1[op], b2[op]);
    console.log(`${String(size).padEnd(8)} ${op.padEnd(12)} ${a.toFixed(3).padStart(8)}  ${b.toFixed(3).padStart(8)}  ${(b / a).toFixed(2).padStart(8)}`);
  }
}
