// The watch cache over real etcd: many watchers share one etcd watch and see every
// change in order; a watch from a revision the ring no longer covers ends with 410
// Expired as upstream's cacher answers, and only one from before the cache started is
// served by etcd, with the same events; one watcher that stops reading is closed without
// holding the others back.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../pkg/runtime/object.js';
import type { ListResult, WatchEvent, WatchStream } from '../../pkg/storage/interfaces.js';
import { EtcdStorage } from '../../pkg/storage/etcd/store.js';
import { CachedStorage } from '../../pkg/storage/cacher/index.js';
import { deleteRevisionWithin, testEtcdClient, uniquePrefix } from '../harness/index.js';

const cm = (name: string, v = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } } as KubeObject);

function collect(w: WatchStream) {
  const events: WatchEvent[] = [];
  let ended = false;
  void (async () => { for await (const ev of w) events.push(ev); ended = true; })();
  return {
    events,
    get ended() { return ended; },
    changes: () => events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`),
  };
}

/** `inner`, recording each call of the named methods: which reads reached etcd. */
function countingReads(inner: EtcdStorage, methods: string[]): { calls: string[]; counting: EtcdStorage } {
  const calls: string[] = [];
  const counting = new Proxy(inner, { get(target, prop, recv) {
    const v = Reflect.get(target, prop, recv) as unknown;
    if (typeof v !== 'function') return v;
    return (...args: unknown[]) => { if (methods.includes(String(prop))) calls.push(String(prop)); return (v as (...a: unknown[]) => unknown).apply(target, args); };
  } });
  return { calls, counting };
}

async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('storage: watch cache', function () {
  this.timeout(60_000);
  let client: Etcd3;
  let etcd: EtcdStorage;
  const caches: CachedStorage[] = [];
  /** `ringSize`: a ring of exactly that many events (undefined: upstream's sizing). */
  const cached = (root: string, ringSize?: number, maxPending = 10_000) => {
    const c = new CachedStorage(etcd, client, [root], { ring: ringSize ? { lowerBound: ringSize, upperBound: ringSize } : undefined, maxPending });
    caches.push(c);
    return c;
  };
  before(async () => { client = await testEtcdClient(); etcd = new EtcdStorage(client); });
  after(() => { for (const c of caches) c.stop(); client?.close(); });

  it('fans one etcd watch out to 50 watchers, each seeing every change in order, and a single-object watch only its object', async () => {
    const root = `${uniquePrefix('cacher-fanout')}/configmaps/`;
    const s = cached(root);
    // The cache starts before the create: its ring then reaches back to the create's revision
    // even when other test files write to the shared etcd in between.
    await s.list(`${root}ns`, { resourceVersion: '0' });
    // Not '1', the value the first update of a writes: an update that stores the same bytes is no write.
    const first = await s.create(`${root}ns/a`, cm('a', 'created'));
    const rv = first.metadata.resourceVersion!;
    const all = await Promise.all(Array.from({ length: 50 }, () => s.watch(`${root}ns`, { recursive: true, resourceVersion: rv })));
    const one = await s.watch(`${root}ns/b`, { recursive: false, resourceVersion: rv });
    expect(s.cachedWatchers()[root]).to.equal(51);
    const readers = all.map(collect);
    const single = collect(one);
    const want: string[] = [];
    for (let i = 0; i < 10; i++) {
      const o = await s.guaranteedUpdate(`${root}ns/${i % 2 ? 'a' : 'b'}`, undefined, async (cur) => ({ ...cm(i % 2 ? 'a' : 'b', String(i)), metadata: { ...cur.metadata, name: i % 2 ? 'a' : 'b', namespace: 'ns' } }), true);
      want.push(`${o.created ? 'ADDED' : 'MODIFIED'} ${o.object.metadata.name}@${o.object.metadata.resourceVersion}`);
    }
    const gone = await s.delete(`${root}ns/a`);
    await until(() => readers.every((r) => r.changes().length === want.length + 1));
    const last = readers[0]!.changes()[want.length]!;
    want.push(`DELETED a@${deleteRevisionWithin(last, gone.metadata.resourceVersion, await s.currentRevision())}`);
    for (const r of readers) expect(r.changes().map((c) => c.replace(/@\d+$/, ''))).to.deep.equal(want.map((c) => c.replace(/@\d+$/, '')));
    for (const r of readers) expect(r.changes()).to.deep.equal(want);
    expect(single.changes().map((c) => c.split(' ')[1].split('@')[0])).to.satisfy((names: string[]) => names.every((n) => n === 'b'));
    expect(single.changes()).to.have.length(5);
    for (const w of [...all, one]) w.stop();
    expect(s.cachedWatchers()[root]).to.equal(0);
  });

  it('resumes from any revision the ring still covers, answers 410 Expired for older ones since it started, and leaves those from before it to etcd', async () => {
    const root = `${uniquePrefix('cacher-ring')}/configmaps/`;
    const s = cached(root, 5);
    // Two writes before the cache starts: the first one's revision is older than the cache.
    const before = (await s.create(`${root}ns/pre0`, cm('pre0'))).metadata.resourceVersion!;
    const pre1 = (await s.create(`${root}ns/pre1`, cm('pre1'))).metadata.resourceVersion!;
    await s.watch(`${root}ns`, { recursive: true, resourceVersion: '' }).then((w) => w.stop()); // start the cache
    const revs: string[] = [];
    for (let i = 0; i < 12; i++) revs.push((await s.create(`${root}ns/c${i}`, cm(`c${i}`))).metadata.resourceVersion!);
    // A live watch sees the last create once the cache has applied it.
    const streams: WatchStream[] = [];
    const open = async (resourceVersion: string | undefined, sendInitialEvents?: boolean) => {
      const w = await s.watch(`${root}ns`, { recursive: true, resourceVersion, sendInitialEvents });
      streams.push(w);
      return collect(w);
    };
    const live = await open(revs[10]);
    await until(() => live.changes().length === 1);
    // Within the ring (the last 5 events, c7..c11), down to the revision before its oldest event.
    const recent = await open(revs[8]);
    const edge = await open(String(Number(revs[7]) - 1));
    expect(s.cachedWatchers()[root]).to.equal(3);
    await until(() => recent.changes().length === 3 && edge.changes().length === 5);
    expect(recent.changes()).to.deep.equal([9, 10, 11].map((i) => `ADDED c${i}@${revs[i]}`));
    expect(edge.changes()).to.deep.equal([7, 8, 9, 10, 11].map((i) => `ADDED c${i}@${revs[i]}`));
    // Older than the ring but not than the cache (revs[0] - 1 is at or after its list): one
    // ERROR event with upstream's Status (the oldest event's revision minus one), then the end.
    const expiredStatus = (requested: string) => ({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `too old resource version: ${requested} (${Number(revs[7]) - 1})`, reason: 'Expired', code: 410,
    });
    for (const requested of [String(Number(revs[7]) - 2), revs[2], revs[0], String(Number(revs[0]) - 1)]) {
      const gone = await open(requested);
      await until(() => gone.ended);
      expect(gone.events, requested).to.deep.equal([{ type: 'ERROR', object: expiredStatus(requested) }]);
    }
    expect(s.cachedWatchers()[root]).to.equal(3);
    // From before the cache started (a replica whose cache started later than the client's
    // revision): etcd serves it, with every event since.
    const old = await open(before);
    expect(s.cachedWatchers()[root]).to.equal(3);
    await until(() => old.changes().length === 13);
    expect(old.changes()).to.deep.equal([`ADDED pre1@${pre1}`, ...revs.map((rv, i) => `ADDED c${i}@${rv}`)]);
    // The initial state does not need the ring.
    const initial = await open(undefined, true);
    await until(() => initial.changes().length === 14);
    for (const w of [recent, edge, old, initial, live]) expect(w.ended).to.equal(false);
    for (const w of streams) w.stop();
  });

  it('closes a watcher that stops reading; the others keep up', async () => {
    const root = `${uniquePrefix('cacher-slow')}/configmaps/`;
    const s = cached(root, undefined, 5);
    // The cache starts before the create, so that it covers the create's revision: started
    // after, at a revision the other mocha worker had moved past the create's, it leaves
    // both watches to etcd (CI: 0 cached watchers, not 1).
    await s.list(`${root}ns`, { resourceVersion: '0' });
    const start = (await s.create(`${root}ns/x`, cm('x'))).metadata.resourceVersion!;
    const stuck = await s.watch(`${root}ns`, { recursive: true, resourceVersion: start }); // never read
    const live = collect(await s.watch(`${root}ns`, { recursive: true, resourceVersion: start }));
    // Each create waits for the live reader to see it: etcd may hand the cache several
    // events in one response, fanned out before the reader's turn, and more than
    // maxPending at once would close it too (CI, a loaded machine: once in many runs).
    for (let i = 0; i < 20; i++) {
      await s.create(`${root}ns/y${i}`, cm(`y${i}`));
      await until(() => live.changes().length === i + 1);
    }
    expect(live.ended).to.equal(false);
    expect(s.cachedWatchers()[root]).to.equal(1);
    const drained: WatchEvent[] = [];
    for await (const ev of stuck) drained.push(ev);
    expect(drained.length).to.be.lessThan(20);
  });

  it('serves resourceVersion=0 reads (with or without a limit) and NotOlderThan reads (named, or a revision with neither match nor limit: a reflector\'s re-list) from memory, and the rest from etcd', async () => {
    const root = `${uniquePrefix('cacher-reads')}/configmaps/`;
    const { calls, counting } = countingReads(etcd, ['list', 'get']);
    const s = new CachedStorage(counting, client, [root], { maxPending: 100 });
    caches.push(s);
    for (const n of ['b', 'a', 'c']) await s.create(`${root}ns/${n}`, cm(n));
    await s.create(`${root}other/z`, cm('z'));
    const latest = (await s.create(`${root}ns/d`, cm('d'))).metadata.resourceVersion!;
    calls.length = 0;
    const deadline = Date.now() + 5000;
    let any = await s.list(`${root}ns`, { resourceVersion: '0' });
    while (any.items.length < 4 && Date.now() < deadline) { await new Promise((r) => setTimeout(r, 20)); any = await s.list(`${root}ns`, { resourceVersion: '0' }); }
    expect(any.items.map((o) => o.metadata.name)).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(Number(any.resourceVersion)).to.be.at.least(Number(latest));
    const fresh = await s.list(`${root}ns`, { resourceVersion: latest, resourceVersionMatch: 'NotOlderThan', predicate: (o) => o.metadata.name !== 'b' });
    expect(fresh.items.map((o) => o.metadata.name)).to.deep.equal(['a', 'c', 'd']);
    const relist = await s.list(`${root}ns`, { resourceVersion: latest });
    expect(relist.items.map((o) => o.metadata.name)).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(Number(relist.resourceVersion)).to.be.at.least(Number(latest));
    expect((await s.get(`${root}ns/c`, { resourceVersion: '0' })).data).to.deep.equal({ v: '1' });
    // rv=0 with a limit (a reflector's first list) is answered whole, as upstream's cacher does.
    const whole = await s.list(`${root}ns`, { resourceVersion: '0', limit: 2 });
    expect(whole.items.map((o) => o.metadata.name)).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(whole.continue).to.equal(undefined);
    expect(calls).to.deep.equal([]);
    await s.list(`${root}ns`, { resourceVersion: latest, resourceVersionMatch: 'Exact' });
    // A revision with a limit is an exact read of etcd's history, as upstream's.
    await s.list(`${root}ns`, { resourceVersion: latest, limit: 2 });
    await s.get(`${root}ns/c`);
    expect(calls).to.deep.equal(['list', 'list', 'get']);
    let missing: unknown;
    try { await s.get(`${root}ns/nope`, { resourceVersion: '0' }); } catch (err) { missing = err; }
    expect((missing as { code?: string }).code).to.equal('KeyNotFound');
  });

  it('serves consistent lists from memory once etcd shows it caught up: every write acknowledged before the list is in it', async () => {
    const root = `${uniquePrefix('cacher-consistent')}/configmaps/`;
    const { calls, counting } = countingReads(etcd, ['list']);
    const s = new CachedStorage(counting, client, [root], { maxPending: 100 });
    caches.push(s);
    // Writes go around this cache (straight to etcd), as another replica's would.
    for (let i = 0; i < 30; i++) {
      const name = `o${i % 5}`;
      let acked: string;
      const exists = (await etcd.list(`${root}ns`, {})).items.some((o) => o.metadata.name === name);
      if (exists && i % 2 === 0) acked = (await etcd.delete(`${root}ns/${name}`)).metadata.resourceVersion!;
      else if (exists) acked = (await etcd.guaranteedUpdate(`${root}ns/${name}`, undefined, async (cur) => ({ ...cur!, data: { v: String(i) } }))).object.metadata.resourceVersion!;
      else acked = (await etcd.create(`${root}ns/${name}`, cm(name, String(i)))).metadata.resourceVersion!;
      const truth = await etcd.list(`${root}ns`, {});
      const got = await s.list(`${root}ns`, {});
      expect(Number(got.resourceVersion), `write ${i}`).to.be.at.least(Number(acked));
      const view = (l: { items: KubeObject[] }) => l.items.map((o) => `${o.metadata.name}=${(o.data as Record<string, string>).v}`);
      expect(view(got), `write ${i}`).to.deep.equal(view(truth));
    }
    // A loaded machine may make a few wait past the bound and read etcd; most come from memory.
    expect(calls.length).to.be.below(15);
  });

  it('serves paginated lists from memory, each page what etcd answers for the same token while objects change; etcd once the ring is past', async () => {
    const root = `${uniquePrefix('cacher-pages')}/configmaps/`;
    const { calls, counting } = countingReads(etcd, ['list']);
    const s = new CachedStorage(counting, client, [root], { ring: { lowerBound: 40, upperBound: 40 }, maxPending: 100 });
    caches.push(s);
    const key = (i: number) => `${root}ns/o-${String(i).padStart(3, '0')}`;
    for (let i = 0; i < 30; i++) await etcd.create(key(i), cm(`o-${i}`));
    const view = (l: { items: KubeObject[]; continue?: string; remainingItemCount?: number; resourceVersion: string }) => ({
      items: l.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`), continue: l.continue,
      remaining: l.remainingItemCount, rv: l.resourceVersion,
    });
    let page = await s.list(`${root}ns`, { limit: 4 });
    const tokens: string[] = [];
    let round = 0;
    while (page.continue) {
      tokens.push(page.continue);
      // Writes around the cache, ahead of and behind the cursor: updates, deletions, creations.
      await etcd.guaranteedUpdate(key(29 - round), undefined, async (cur) => ({ ...cur!, data: { v: `u${round}` } }), true);
      await etcd.delete(key(28 - round)).catch(() => undefined);
      await etcd.create(key(100 + round), cm('late'));
      await etcd.create(`${root}ns/a-${round}`, cm('early'));
      const truth = await etcd.list(`${root}ns`, { limit: 4, continue: page.continue });
      page = await s.list(`${root}ns`, { limit: 4, continue: page.continue });
      expect(view(page), `page ${round}`).to.deep.equal(view(truth));
      round++;
    }
    expect(round).to.be.greaterThan(4);
    expect(calls, 'pages read etcd').to.deep.equal([]);
    // Past the ring's 40 events the first token's revision is out of its reach: etcd answers.
    for (let i = 0; i < 45; i++) await etcd.create(`${root}ns/z-${i}`, cm('z'));
    const old = await s.list(`${root}ns`, { limit: 4, continue: tokens[0] });
    expect(view(old)).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4, continue: tokens[0] })));
    expect(calls).to.deep.equal(['list']);
  });

  it('reads a first page while its freshness probe is out: it stands when the cache was current, and is replaced by the page at etcd\'s revision when a write came first', async () => {
    const root = `${uniquePrefix('cacher-first-page')}/configmaps/`;
    // Each value the cache reads from its watch takes 5 ms, as a KMS-backed one may: the page
    // is read a turn after the probe left, and a write acknowledged before the list would
    // otherwise often reach the cache within that turn (the page then stands, rightly).
    const slowReads = {
      fromStorage: async (_key: Buffer, data: Buffer) => { await new Promise((r) => setTimeout(r, 5)); return { data, stale: false }; },
      toStorage: async (_key: Buffer, data: Buffer) => data,
    };
    const s = new CachedStorage(etcd, client, [root], { maxPending: 100, transformer: slowReads });
    caches.push(s);
    for (let i = 0; i < 6; i++) await etcd.create(`${root}ns/o-${i}`, cm(`o-${i}`));
    const view = (l: ListResult) => ({ items: l.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`), remaining: l.remainingItemCount });
    /** The page a client gets: the one handed over, or the one etcd's word replaced it with. */
    const answered = async (l: ListResult) => (await l.confirmed) ?? l;
    // A page read early stands only when etcd's revision did not move from the cache's last
    // word to the probe's answer; other tests' servers share this etcd and may write between
    // the two at any time, so a quiet moment is looked for, not assumed (after two pages
    // replaced, a cache reads early only every 16th time: handEarly).
    let stood = 0;
    for (let attempt = 0; attempt < 40 && stood === 0; attempt++) {
      await answered(await s.list(`${root}ns`, { limit: 4, deferConfirmation: true }));
      const quiet = await s.list(`${root}ns`, { limit: 4, deferConfirmation: true });
      if (quiet.confirmed === undefined) continue;
      const got = await answered(quiet);
      if (got === quiet) stood++;
      expect(view(got)).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4 })));
    }
    expect(stood, 'nothing changed: the page read early stands').to.equal(1);
    let replaced = 0;
    for (let i = 0; i < 20; i++) {
      // A write around the cache (another replica's), acknowledged before the list asks.
      const acked = (await etcd.guaranteedUpdate(`${root}ns/o-${i % 6}`, undefined, async (cur) => ({ ...cur!, data: { v: String(i) } }))).object;
      const early = await s.list(`${root}ns`, { limit: 4, deferConfirmation: true });
      const other = await early.confirmed;
      if (other) replaced++;
      const got = other ?? early;
      expect(Number(got.resourceVersion), `write ${i}`).to.be.at.least(Number(acked.metadata.resourceVersion));
      expect(view(got), `write ${i}`).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4 })));
      const next = await s.list(`${root}ns`, { limit: 4, continue: got.continue });
      expect(view(next), `write ${i}: the page after it`).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4, continue: got.continue })));
    }
    expect(replaced, 'pages read before the cache saw the write were replaced').to.be.greaterThan(0);
  });

  it('answers a first page from memory once etcd shows the keys it read unchanged, though a write beyond it has not reached the cache yet', async () => {
    const root = `${uniquePrefix('cacher-page-probe')}/configmaps/`;
    const { calls, counting } = countingReads(etcd, ['list']);
    // The cache takes a second to read a value whose key sorts after the first page.
    const lateReads = {
      fromStorage: async (key: Buffer, data: Buffer) => {
        if (key.toString().includes('/zz-')) await new Promise((r) => setTimeout(r, 1000));
        return { data, stale: false };
      },
      toStorage: async (_key: Buffer, data: Buffer) => data,
    };
    const s = new CachedStorage(counting, client, [root], { maxPending: 100, transformer: lateReads });
    caches.push(s);
    for (let i = 0; i < 10; i++) await etcd.create(`${root}ns/o-${i}`, cm(`o-${i}`));
    const view = (l: ListResult) => ({ items: l.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`), remaining: l.remainingItemCount });
    expect(view(await s.list(`${root}ns`, { limit: 4 }))).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4 })));
    const acked = await etcd.create(`${root}ns/zz-late`, cm('zz-late'));
    calls.length = 0;
    const first = await s.list(`${root}ns`, { limit: 4 });
    // The whole resource's probe would have waited for the cache to read zz-late, then asked etcd.
    expect(calls, 'the first page read etcd').to.deep.equal([]);
    expect(Number(first.resourceVersion)).to.be.at.least(Number(acked.metadata.resourceVersion));
    expect(view(first)).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4 })));
    expect(first.remainingItemCount, 'zz-late counted').to.equal(7);
    let page = first;
    const names: string[] = first.items.map((o) => o.metadata.name!);
    while (page.continue) {
      const truth = await etcd.list(`${root}ns`, { limit: 4, continue: page.continue });
      page = await s.list(`${root}ns`, { limit: 4, continue: page.continue });
      expect(view(page)).to.deep.equal(view(truth));
      names.push(...page.items.map((o) => o.metadata.name!));
    }
    expect(names.at(-1), 'the write beyond the first page is in the list').to.equal('zz-late');
  });

  it('answers a first page on etcd\'s revision alone while nothing was written since the cache\'s, and probes the page\'s keys once etcd moved', async () => {
    const root = `${uniquePrefix('cacher-quiet-page')}/configmaps/`;
    // A client of its own, counting transactions: the page's probe is one, etcd's revision a range.
    const own = await testEtcdClient();
    const txn = own.kv.txn.bind(own.kv);
    let txns = 0;
    own.kv.txn = (req) => { txns++; return txn(req); };
    const s = new CachedStorage(etcd, own, [root], { maxPending: 100 });
    try {
      for (let i = 0; i < 6; i++) await etcd.create(`${root}ns/o-${i}`, cm(`o-${i}`));
      const view = (l: ListResult) => ({ items: l.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`), remaining: l.remainingItemCount, rv: l.resourceVersion });
      await s.list(`${root}ns`, { limit: 4 });
      // Other tests' servers share this etcd and may write at any time: a quiet moment is
      // looked for (after two pages that found etcd moved, the question is asked every 16th time).
      let quiet = 0;
      for (let attempt = 0; attempt < 60 && quiet === 0; attempt++) {
        txns = 0;
        const page = await s.list(`${root}ns`, { limit: 4 });
        if (txns > 0) continue;
        quiet++;
        const truth = await etcd.list(`${root}ns`, { limit: 4 });
        expect(view(page)).to.deep.equal({ ...view(truth), rv: page.resourceVersion });
        expect(Number(page.resourceVersion)).to.be.at.most(Number(truth.resourceVersion));
      }
      expect(quiet, 'a page answered without a transaction').to.equal(1);
      // A write to another resource moves etcd past the cache: the page's keys are probed, and it is answered at etcd's revision.
      const other = await etcd.create(`${uniquePrefix('cacher-quiet-other')}/configmaps/ns/x`, cm('x'));
      txns = 0;
      const moved = await s.list(`${root}ns`, { limit: 4 });
      expect(txns, 'the page probed').to.be.at.least(1);
      expect(Number(moved.resourceVersion)).to.be.at.least(Number(other.metadata.resourceVersion));
      const truth = await etcd.list(`${root}ns`, { limit: 4 });
      expect({ ...view(moved), rv: '' }).to.deep.equal({ ...view(truth), rv: '' });
      const next = await s.list(`${root}ns`, { limit: 4, continue: moved.continue });
      expect(view(next)).to.deep.equal(view(await etcd.list(`${root}ns`, { limit: 4, continue: moved.continue })));
    } finally {
      s.stop();
      own.close();
    }
  });

  it('applies a transaction that writes many keys as one revision: a consistent list or page never shows part of it', async () => {
    const root = `${uniquePrefix('cacher-txn')}/configmaps/`;
    // Each value's read takes a turn of the event loop, as a KMS-backed one does: the list's
    // etcd probe can then come back while the cache is in the middle of a transaction.
    const slowReads = {
      fromStorage: async (_key: Buffer, data: Buffer) => { await new Promise((r) => setImmediate(r)); return { data, stale: false }; },
      toStorage: async (_key: Buffer, data: Buffer) => data,
    };
    const s = new CachedStorage(etcd, client, [root], { maxPending: 10_000, transformer: slowReads });
    caches.push(s);
    await s.list(`${root}ns`, {});
    for (let round = 0; round < 5; round++) {
      // One etcd transaction of 128 puts, around the cache, as a bulk writer's would be.
      await client.kv.txn({ success: Array.from({ length: 128 }, (_, i) => {
        const name = `r${round}-${String(i).padStart(3, '0')}`;
        return { request_put: { key: Buffer.from(`${root}ns/${name}`), value: Buffer.from(JSON.stringify(cm(name))) } };
      }) });
      const want = 128 * (round + 1);
      const page = await s.list(`${root}ns`, { limit: 1 });
      expect(page.remainingItemCount, `round ${round}: a page's remaining count`).to.equal(want - 1);
      const all = await s.list(`${root}ns`, {});
      expect(all.items.length, `round ${round}: a consistent list`).to.equal(want);
    }
  });

  it('hands a node-scoped watcher only its node\'s pod events (old and new node), and lists a node through the index', async () => {
    const root = `${uniquePrefix('cacher-trigger')}/pods/`;
    const s = cached(root, 1000);
    const pod = (name: string, node: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: node } } as KubeObject);
    const nodeOf = (o: KubeObject) => String((o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '');
    const on = (node: string) => ({ field: 'spec.nodeName', value: node, extract: nodeOf });
    const names = (l: { items: KubeObject[] }) => l.items.map((o) => o.metadata.name);
    for (let i = 0; i < 30; i++) await s.create(`${root}ns/p${String(i).padStart(2, '0')}`, pod(`p${String(i).padStart(2, '0')}`, `n${i % 3}`));
    // Initial state from the index: only n1's pods under the prefix, in key order. This
    // first watch starts the cache; `start` is written after it, so the watches from `start`
    // are the cache's to serve (one from before its first list would go to etcd, which knows
    // no triggers, and the other mocha worker's writes to the shared etcd can come between).
    const n1 = collect(await s.watch(`${root}ns`, { recursive: true, sendInitialEvents: true, trigger: on('n1') }));
    const start = (await s.create(`${root}other/q`, pod('q', 'n1'))).metadata.resourceVersion!;
    const all = collect(await s.watch(`${root}ns`, { recursive: true, resourceVersion: start }));
    const byName = collect(await s.watch(root, { recursive: true, resourceVersion: start, trigger: { field: 'metadata.name', value: 'p04' } }));
    await until(() => n1.changes().length === 10);
    expect(n1.changes().map((c) => c.split('@')[0])).to.deep.equal([1, 4, 7, 10, 13, 16, 19, 22, 25, 28].map((i) => `ADDED p${String(i).padStart(2, '0')}`));
    // p00 moves n0 -> n1, p01 leaves n1, p02 changes on n2; p04 is deleted from n1.
    const moveIn = await s.guaranteedUpdate(`${root}ns/p00`, undefined, async (cur) => ({ ...cur, spec: { nodeName: 'n1' } } as KubeObject));
    const moveOut = await s.guaranteedUpdate(`${root}ns/p01`, undefined, async (cur) => ({ ...cur, spec: { nodeName: 'n2' } } as KubeObject));
    const relabelled = await s.guaranteedUpdate(`${root}ns/p02`, undefined, async (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } } } as KubeObject));
    await s.delete(`${root}ns/p04`);
    await until(() => all.changes().length === 4 && n1.changes().length === 13 && byName.changes().length === 1);
    await new Promise((r) => setTimeout(r, 200));
    const deletedAt = deleteRevisionWithin(byName.changes()[0]!, relabelled.object.metadata.resourceVersion, await s.currentRevision());
    expect(n1.changes().slice(10)).to.deep.equal([
      `MODIFIED p00@${moveIn.object.metadata.resourceVersion}`, `MODIFIED p01@${moveOut.object.metadata.resourceVersion}`,
      `DELETED p04@${deletedAt}`,
    ]);
    expect(byName.changes()).to.deep.equal([`DELETED p04@${deletedAt}`]);
    // A watcher resuming from the ring is filtered the same way.
    const replay = collect(await s.watch(`${root}ns`, { recursive: true, resourceVersion: start, trigger: on('n2') }));
    await until(() => replay.changes().length === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(replay.changes().map((c) => c.split('@')[0])).to.deep.equal(['MODIFIED p01', 'MODIFIED p02']);
    // Lists through the index follow the moves; they match etcd's filtered list.
    const fromEtcd = await etcd.list(`${root}ns`, { predicate: (o) => nodeOf(o) === 'n1' });
    const listed = await s.list(`${root}ns`, { resourceVersion: '0', index: on('n1'), predicate: (o) => nodeOf(o) === 'n1' });
    expect(names(listed)).to.deep.equal(names(fromEtcd));
    expect(names(listed)).to.deep.equal(['p00', 'p07', 'p10', 'p13', 'p16', 'p19', 'p22', 'p25', 'p28']);
    const everywhere = await s.list(root, { index: on('n1') });
    expect(names(everywhere)).to.deep.equal([...names(listed), 'q']);
    expect(names(await s.list(root, { resourceVersion: '0', index: { field: 'metadata.name', value: 'p05' } }))).to.deep.equal(['p05']);
  });

  it('tells every watcher the revision it has reached, so a node-scoped watch on a busy resource resumes inside the ring, not with 410', async () => {
    const root = `${uniquePrefix('cacher-progress')}/pods/`;
    const s = new CachedStorage(etcd, client, [root], { ring: { lowerBound: 5, upperBound: 5 }, maxPending: 10_000, progressEveryMs: 100 });
    caches.push(s);
    const pod = (name: string, node: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: node } } as KubeObject);
    const on = (node: string) => ({ field: 'spec.nodeName', value: node, extract: (o: KubeObject) => String((o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '') });
    await s.list(`${root}ns`, { resourceVersion: '0' }); // start the cache
    const start = (await s.create(`${root}ns/a0`, pod('a0', 'n1'))).metadata.resourceVersion!;
    const quietStream = await s.watch(`${root}ns`, { recursive: true, resourceVersion: start, trigger: on('n9') });
    const quiet = collect(quietStream);
    let last = '';
    for (let i = 1; i <= 10; i++) last = (await s.create(`${root}ns/a${i}`, pod(`a${i}`, 'n1'))).metadata.resourceVersion!;
    const told = () => quiet.events.filter((e) => e.type === 'BOOKMARK').map((e) => Number(e.object.metadata.resourceVersion));
    await until(() => told().some((rv) => rv >= Number(last)));
    expect(quiet.changes()).to.deep.equal([]);
    const bookmarked = String(Math.max(...told()));
    // Its client resumes from the bookmark: served from the ring, with what comes next.
    const resumed = await s.watch(`${root}ns`, { recursive: true, resourceVersion: bookmarked, trigger: on('n9') });
    const next = collect(resumed);
    const mine = (await s.create(`${root}ns/b0`, pod('b0', 'n9'))).metadata.resourceVersion!;
    await until(() => next.changes().length === 1);
    expect(next.changes()).to.deep.equal([`ADDED b0@${mine}`]);
    // From its last own event instead, the ring (5 events) has moved on: 410.
    const stale = collect(await s.watch(`${root}ns`, { recursive: true, resourceVersion: start, trigger: on('n9') }));
    await until(() => stale.ended);
    expect(stale.events.map((e) => e.type)).to.deep.equal(['ERROR']);
    quietStream.stop(); resumed.stop();
  });

  it('updates start from the cached object but never lose a write made around the cache, and preconditions see etcd\'s object', async () => {
    const root = `${uniquePrefix('cacher-update')}/configmaps/`;
    const s = new CachedStorage(etcd, client, [root], { maxPending: 100 });
    caches.push(s);
    const key = `${root}ns/n`;
    await s.create(key, cm('n', '0'));
    await s.watch(`${root}ns`, { recursive: true, resourceVersion: '' }).then((w) => w.stop()); // start the cache
    const bump = async (cur: KubeObject) => ({ ...cur, data: { v: String(Number((cur.data as Record<string, string>).v) + 1) } } as KubeObject);
    for (let i = 0; i < 10; i++) {
      // Another replica's write (straight to etcd), then ours at once: the cache may be behind.
      const theirs = await etcd.guaranteedUpdate(key, undefined, bump);
      const ours = await s.guaranteedUpdate(key, { resourceVersion: theirs.object.metadata.resourceVersion }, bump);
      expect((ours.object.data as Record<string, string>).v, `round ${i}`).to.equal(String(2 * i + 2));
    }
    // A no-op against a stale cached copy is checked against etcd: its answer is etcd's object.
    const latest = await etcd.guaranteedUpdate(key, undefined, bump);
    const same = await s.guaranteedUpdate(key, undefined, async () => null);
    expect(same.object.metadata.resourceVersion).to.equal(latest.object.metadata.resourceVersion);
    expect((await etcd.get(key)).data).to.deep.equal({ v: '21' });
  });
  it('a resource written before anything lists or watches it gets its cache then, so later updates skip the read (a kubelet\'s Lease)', async () => {
    const root = `${uniquePrefix('cacher-written')}/leases/`;
    const s = new CachedStorage(etcd, client, [root], { maxPending: 100 });
    caches.push(s);
    const key = `${root}ns/node-1`;
    await s.create(key, cm('node-1', '0'));
    const kv = client.kv as unknown as { range: (...a: unknown[]) => Promise<unknown> };
    const range = kv.range;
    let ranges = 0;
    kv.range = (...a: unknown[]) => { ranges++; return range.apply(client.kv, a); };
    const bump = async (cur: KubeObject) => ({ ...cur, data: { v: String(Number((cur.data as Record<string, string>).v) + 1) } } as KubeObject);
    try {
      expect(s.cachedWatchers()[root]).to.equal(undefined);
      // The first update has no cache to start from: it reads etcd, and starts the cache.
      const first = await s.guaranteedUpdate(key, undefined, bump);
      expect(s.cachedWatchers()[root]).to.equal(0);
      await until(() => s['caches'].get(root)?.peek(key)?.metadata.resourceVersion === first.object.metadata.resourceVersion);
      ranges = 0;
      const second = await s.guaranteedUpdate(key, { resourceVersion: first.object.metadata.resourceVersion }, bump);
      expect(ranges, 'etcd reads by the update that found the cache').to.equal(0);
      expect((second.object.data as Record<string, string>).v).to.equal('2');
    } finally {
      kv.range = range;
    }
    expect((await etcd.get(key)).data).to.deep.equal({ v: '2' });
  });
  it('deletes from the cached object without a read when it is current, and otherwise checks and deletes etcd\'s object', async () => {
    const root = `${uniquePrefix('cacher-delete')}/configmaps/`;
    const s = new CachedStorage(etcd, client, [root], { maxPending: 100 });
    caches.push(s);
    await s.watch(`${root}ns`, { recursive: true, resourceVersion: '' }).then((w) => w.stop()); // start the cache
    const inCache = async (key: string, rv: string) => until(() => s['caches'].get(root)?.peek(key)?.metadata.resourceVersion === rv);
    const bump = async (cur: KubeObject) => ({ ...cur, data: { v: String(Number((cur.data as Record<string, string>).v) + 1) } } as KubeObject);
    const kv = client.kv as unknown as { range: (...a: unknown[]) => Promise<unknown> };
    const range = kv.range;
    let ranges = 0;
    kv.range = (...a: unknown[]) => { ranges++; return range.apply(client.kv, a); };
    try {
      // Current copy: one transaction, no read.
      const made = await s.create(`${root}ns/current`, cm('current', '7'));
      await inCache(`${root}ns/current`, made.metadata.resourceVersion!);
      ranges = 0;
      const seen: string[] = [];
      const gone = await s.delete(`${root}ns/current`, { uid: undefined, resourceVersion: made.metadata.resourceVersion }, async (o) => { seen.push(o.metadata.resourceVersion!); });
      expect(ranges).to.equal(0);
      expect(seen).to.deep.equal([made.metadata.resourceVersion]);
      expect(gone.data).to.deep.equal({ v: '7' });
      await etcd.get(`${root}ns/current`).then(() => expect.fail('still there'), (err: Error) => expect(err.message).to.match(/key not found/));

      for (let i = 0; i < 5; i++) {
        const key = `${root}ns/stale-${i}`;
        const first = await s.create(key, cm(`stale-${i}`, '0'));
        await inCache(key, first.metadata.resourceVersion!);
        // Another replica's write lands in etcd; the cache still holds the older copy.
        const theirs = await etcd.guaranteedUpdate(key, undefined, bump);
        const checked: string[] = [];
        const deleted = await s.delete(key, { resourceVersion: theirs.object.metadata.resourceVersion }, async (o) => { checked.push(o.metadata.resourceVersion!); });
        // The delete removed etcd's object (never the copy's), after validating it.
        expect(deleted.metadata.resourceVersion, `round ${i}`).to.equal(theirs.object.metadata.resourceVersion);
        expect(deleted.data).to.deep.equal({ v: '1' });
        expect(checked[checked.length - 1]).to.equal(theirs.object.metadata.resourceVersion);
      }

      // A validation that rejects etcd's object fails the delete; the object stays.
      const kept = await s.create(`${root}ns/kept`, cm('kept'));
      await inCache(`${root}ns/kept`, kept.metadata.resourceVersion!);
      const newer = await etcd.guaranteedUpdate(`${root}ns/kept`, undefined, bump);
      const refuse = async (o: KubeObject) => { if (o.metadata.resourceVersion === newer.object.metadata.resourceVersion) throw new Error('refused'); };
      await s.delete(`${root}ns/kept`, undefined, refuse).then(() => expect.fail('deleted'), (err: Error) => expect(err.message).to.equal('refused'));
      expect((await etcd.get(`${root}ns/kept`)).metadata.resourceVersion).to.equal(newer.object.metadata.resourceVersion);

      // Deleted around the cache: not found, even while the cache still holds it.
      const lost = await s.create(`${root}ns/lost`, cm('lost'));
      await inCache(`${root}ns/lost`, lost.metadata.resourceVersion!);
      await etcd.delete(`${root}ns/lost`);
      await s.delete(`${root}ns/lost`).then(() => expect.fail('deleted twice'), (err: Error) => expect(err.message).to.match(/key not found/));
    } finally {
      kv.range = range;
    }
  });

  it('answers a consistent get from etcd, taking the cache\'s copy for etcd\'s value only when it has etcd\'s revision', async () => {
    const root = `${uniquePrefix('cacher-get')}/configmaps/`;
    const s = cached(root);
    await s.watch(`${root}ns`, { recursive: true, resourceVersion: '' }).then((w) => w.stop()); // start the cache
    const key = `${root}ns/a`;
    const made = await s.create(key, cm('a', 'cached'));
    await until(() => s['caches'].get(root)?.peek(key)?.metadata.resourceVersion === made.metadata.resourceVersion);
    // The same revision: the copy is etcd's value, and the caller gets its own copy of it.
    const got = await s.get(key);
    expect(got.data).to.deep.equal({ v: 'cached' });
    (got.data as Record<string, string>).v = 'changed by the caller';
    expect((await s.get(key)).data).to.deep.equal({ v: 'cached' });
    // A reader that changes nothing gets the cache's own copy, consistent or at revision 0;
    // never a copy etcd's value does not stand behind.
    const shared = s['caches'].get(root)?.peek(key);
    expect(await s.get(key, { readOnly: true })).to.equal(shared);
    expect(await s.get(key, { resourceVersion: '0', readOnly: true })).to.equal(shared);
    const own = await s.get(key, { resourceVersion: '0' });
    expect(own).to.not.equal(shared);
    expect(own).to.deep.equal(shared);
    // Only the cache's (shared) objects are handed out as they are.
    const unshared = { ...made };
    const fromEtcd = await etcd.get(key, { knownCopy: unshared, readOnly: true });
    expect(fromEtcd).to.not.equal(unshared);
    expect(fromEtcd).to.deep.equal(unshared);
    // A copy with etcd's revision stands for etcd's value (it is not decoded again); one
    // with another revision is never taken for it.
    const marked = { ...made, data: { v: 'the copy' } } as KubeObject;
    expect((await etcd.get(key, { knownCopy: marked })).data).to.deep.equal({ v: 'the copy' });
    const older = { ...made, metadata: { ...made.metadata, resourceVersion: String(Number(made.metadata.resourceVersion) - 1) } } as KubeObject;
    expect((await etcd.get(key, { knownCopy: { ...older, data: { v: 'older' } } as KubeObject })).data).to.deep.equal({ v: 'cached' });
    const theirs = await etcd.guaranteedUpdate(key, undefined, async (cur) => ({ ...cur, data: { v: 'theirs' } } as KubeObject));
    expect((await etcd.get(key, { knownCopy: made })).data).to.deep.equal({ v: 'theirs' });
    expect((await s.get(key, { knownCopy: shared, readOnly: true })).data).to.deep.equal({ v: 'theirs' });
    expect((await s.get(key)).metadata.resourceVersion).to.equal(theirs.object.metadata.resourceVersion);
  });
  it('after a value it could not decode, takes the next event\'s previous object from etcd (its watch carries no previous values)', async () => {
    const root = `${uniquePrefix('cacher-undecodable')}/configmaps/`;
    const s = cached(root);
    const key = `${root}ns/x`;
    await s.create(key, cm('x', 'first'));
    await s.watch(`${root}ns`, { recursive: true, resourceVersion: '' }).then((w) => w.stop()); // start the cache
    // Valid stored bytes of two other contents, written at the key straight to etcd.
    const bytesOf = async (v: string): Promise<Buffer> => {
      await s.create(`${root}other/${v}`, cm('x', v));
      return (await client.get(`${root}other/${v}`).buffer())!;
    };
    const third = await bytesOf('third');
    const fourth = await bytesOf('fourth');
    const from = (await client.put(key).value(Buffer.from('not an object')).exec()).header.revision;
    const watcher = collect(await s.watch(`${root}ns`, { recursive: true, resourceVersion: from }));
    const v3 = (await client.put(key).value(third).exec()).header.revision;
    await until(() => watcher.ended);
    expect(watcher.events.map((e) => e.type).filter((t) => t !== 'BOOKMARK')).to.deep.equal(['ERROR']); // the previous value (v2) is undecodable
    const v4 = (await client.put(key).value(fourth).exec()).header.revision;
    const after = collect(await s.watch(`${root}ns`, { recursive: true, resourceVersion: v3 }));
    const changes = () => after.events.filter((e) => e.type !== 'BOOKMARK');
    await until(() => changes().length === 1);
    const [ev] = changes();
    expect(ev!.type).to.equal('MODIFIED');
    expect(ev!.object.metadata.resourceVersion).to.equal(v4);
    expect(ev!.object.data).to.deep.equal({ v: 'fourth' });
    expect(ev!.previous?.data).to.deep.equal({ v: 'third' });
    expect(ev!.previous?.metadata.resourceVersion).to.equal(v3);
    expect(s.cachedWatchers()[root]).to.equal(1);
  });
});
