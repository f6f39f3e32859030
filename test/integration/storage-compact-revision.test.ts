// The compact revision tracker against real etcd (each test its own cluster: compaction is
// etcd-wide): what every apiserver's compactor writes to compact_rev_key is seen through
// the watch, our own swaps are seen at once, the answer's boundary is etcd's, and a broken
// watch makes it not current until the key is read again. Then the watch cache's continue
// pages with it: answered without a question to etcd, 410 Expired after a compaction by
// the compactors, and etcd's own 410 for a direct compaction once the ring no longer
// covers the token and etcd serves the page.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../pkg/runtime/object.js';
import { StatusError } from '../../pkg/runtime/errors.js';
import { CompactRevisionTracker } from '../../pkg/storage/etcd/compact-revision.js';
import { compactTick, type CompactorState, type TickResult } from '../../pkg/storage/etcd/compactor.js';
import { EtcdStorage } from '../../pkg/storage/etcd/store.js';
import { CachedStorage } from '../../pkg/storage/cacher/index.js';
import { injectFaults } from '../../pkg/storage/etcd/testing/faults.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { until } from '../harness/index.js';

const cm = (name: string, v = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } } as KubeObject);

/** Ticks as a replica's compactor does until one tick compacts (the first win only records). */
async function compactLikeAReplica(client: Etcd3, state: CompactorState = { time: 0, revision: 0 }): Promise<TickResult & { compacted: number }> {
  for (let i = 0; i < 4; i++) {
    const r = await compactTick(client, state);
    if (r.compacted !== undefined) return r as TickResult & { compacted: number };
    state = r.state;
  }
  throw new Error('no tick compacted');
}

describe('storage: compact revision tracker', function () {
  this.timeout(90_000);
  let cluster: TestCluster | undefined;
  const closers: Array<() => void> = [];
  const clientOf = (endpoints: string[]) => { const c = new Etcd3({ hosts: endpoints }); closers.push(() => c.close()); return c; };
  const tracker = (client: Etcd3) => { const t = new CompactRevisionTracker(client, { retryMs: 100 }); closers.push(() => t.stop()); return t; };
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) close();
    await cluster?.stop();
    cluster = undefined;
  });

  it('sees another replica\'s compaction through the watch and its own swaps (won or lost) at once, with etcd\'s boundary', async () => {
    cluster = await startTestCluster(1);
    const [a, b] = [clientOf(cluster.endpoints), clientOf(cluster.endpoints)];
    const watching = tracker(b).start();
    expect(watching.historyCompacted(1), 'not current before its first read').to.equal(undefined);
    await until('the watch established', () => watching.current, 15_000);
    expect(watching.revision).to.equal(0);
    for (let i = 0; i < 5; i++) await a.put('/x').value(String(i));
    const own = tracker(a);
    const won = await compactLikeAReplica(a);
    own.observe(won.compactRevision);
    const c = won.compacted;
    expect(won.compactRevision).to.equal(c);
    expect(own.revision, 'the winner knows from its swap').to.equal(c);
    await until('the other tracker saw the swap', () => watching.revision === c, 15_000);
    // A replica whose clock is behind loses the swap and learns the winner's revision.
    const lost = await compactTick(a, { time: 0, revision: 0 });
    expect([lost.compacted, lost.compactRevision]).to.deep.equal([undefined, c]);
    // The same answers as the question to etcd, at and around the boundary: a read at
    // revision r is refused when r < c, and historyCompacted(r) asks about r + 1.
    const store = new EtcdStorage(a);
    for (const rev of [c - 3, c - 2, c - 1, c, c + 1]) {
      expect(watching.historyCompacted(rev), `historyCompacted(${rev}), compacted to ${c}`).to.equal(await store.historyCompacted(rev));
    }
    expect([watching.historyCompacted(c - 2), watching.historyCompacted(c - 1)]).to.deep.equal([true, false]);
  });

  it('after a failed read it reads again; after its member fails it is not current until it has read the key again', async () => {
    cluster = await startTestCluster(3);
    const [m0, m1] = [clientOf([cluster.endpoints[0]!]), clientOf([cluster.endpoints[1]!])];
    const errors: unknown[] = [];
    const faults = injectFaults(m0);
    faults.fail('KV', 'range', 'unavailable');
    const t = new CompactRevisionTracker(m0, { retryMs: 100, onError: (e) => errors.push(e) }).start();
    closers.push(() => t.stop());
    await until('current after the retry', () => t.current, 15_000);
    expect(errors, 'the first read failed').to.have.length(1);
    for (let i = 0; i < 5; i++) await m1.put('/x').value(String(i));
    await cluster.kill(0);
    await until('not current once its watch broke', () => !t.current, 15_000);
    expect(t.historyCompacted(1)).to.equal(undefined);
    // A compaction while its watch was down is learned by reading the key again.
    const { compacted } = await compactLikeAReplica(m1);
    await cluster.start(0);
    await until('current again', () => t.current, 15_000);
    expect(t.revision).to.equal(compacted);
  });
});

describe('storage: watch cache continue pages with the compact revision tracker', function () {
  this.timeout(90_000);
  let cluster: TestCluster;
  let client: Etcd3;
  let tracker: CompactRevisionTracker;
  let questions: number[];
  let cached: CachedStorage;
  const root = '/tracked/configmaps/';
  before(async () => {
    cluster = await startTestCluster(1);
    client = new Etcd3({ hosts: cluster.endpoints });
    tracker = new CompactRevisionTracker(client, { retryMs: 100 }).start();
    const etcd = new EtcdStorage(client);
    questions = [];
    const counting = new Proxy(etcd, { get(target, prop, recv) {
      if (prop === 'historyCompacted') return (rev: number) => { questions.push(rev); return target.historyCompacted(rev); };
      const v = Reflect.get(target, prop, recv) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    } });
    cached = new CachedStorage(counting, client, [root], { maxPending: 1000, ring: { lowerBound: 5, upperBound: 5 }, knownCompaction: tracker });
    for (let i = 0; i < 6; i++) await cached.create(`${root}ns/c${i}`, cm(`c${i}`));
    await until('tracker current', () => tracker.current, 15_000);
  });
  after(async () => {
    cached?.stop();
    tracker?.stop();
    client?.close();
    await cluster?.stop();
  });

  const expired = (err: unknown) => {
    expect(err).to.be.instanceOf(StatusError);
    const status = (err as StatusError).toStatus();
    expect([status.code, status.reason]).to.deep.equal([410, 'Expired']);
    return status;
  };

  it('serves continue pages without asking etcd, and 410 Expired once the compactors compacted the token\'s revision', async () => {
    const first = await cached.list(`${root}ns/`, { limit: 2 });
    const second = await cached.list(`${root}ns/`, { limit: 2, continue: first.continue });
    expect(second.items.map((o) => o.metadata.name)).to.deep.equal(['c2', 'c3']);
    // A page read ahead says so too: the request that takes it need not let a question leave first (askEarly).
    const ahead = await cached.pageAhead(`${root}ns/`, { limit: 2, continue: first.continue });
    expect(ahead?.items.map((o) => o.metadata.name)).to.deep.equal(['c2', 'c3']);
    expect(ahead?.confirmAsks(), 'a read ahead page would not ask').to.equal(false);
    expect(questions, 'no question to etcd').to.deep.equal([]);
    await cached.guaranteedUpdate(`${root}ns/c0`, undefined, async (o) => ({ ...o, data: { v: '2' } }));
    const { compacted } = await compactLikeAReplica(client);
    expect(compacted).to.be.greaterThan(Number(first.resourceVersion));
    // Current again too: etcd may have cancelled its watch, created while writes went on, with the compaction.
    await until('the tracker saw the compaction', () => tracker.revision === compacted && tracker.current, 15_000);
    const err = await cached.list(`${root}ns/`, { limit: 2, continue: second.continue }).then(() => undefined, (e: unknown) => e);
    const status = expired(err);
    expect(JSON.parse(Buffer.from((status.metadata as { continue: string }).continue, 'base64url').toString())).to.deep.include({ rv: -1, start: 'c3\u0000' });
    expect(questions, 'still no question to etcd').to.deep.equal([]);
  });

  it('a direct compaction is 410 from etcd once the ring no longer covers the token and etcd serves the page', async () => {
    const first = await cached.list(`${root}ns/`, { limit: 2 });
    for (let i = 0; i < 6; i++) await cached.guaranteedUpdate(`${root}ns/c5`, undefined, async (o) => ({ ...o, data: { v: `r${i}` } }));
    await client.kv.compact({ revision: (await client.kv.range({ key: Buffer.from([0]), limit: 1 })).header.revision });
    const asked = questions.length;
    const err = await cached.list(`${root}ns/`, { limit: 2, continue: first.continue }).then(() => undefined, (e: unknown) => e);
    expired(err);
    expect(questions.length, 'etcd answered the page itself').to.equal(asked);
  });

  // Last: it stops the tracker.
  it('asks etcd while the tracker is not current (a direct compaction is then 410 from the cache)', async () => {
    const first = await cached.list(`${root}ns/`, { limit: 2 });
    const asked = questions.length;
    await cached.guaranteedUpdate(`${root}ns/c1`, undefined, async (o) => ({ ...o, data: { v: '3' } }));
    await client.kv.compact({ revision: (await client.kv.range({ key: Buffer.from([0]), limit: 1 })).header.revision });
    // The tracker does not see a compaction that skips compact_rev_key; without it, the question does.
    const page = await cached.list(`${root}ns/`, { limit: 2, continue: first.continue });
    expect(page.items.map((o) => o.metadata.name)).to.deep.equal(['c2', 'c3']);
    tracker.stop();
    const err = await cached.list(`${root}ns/`, { limit: 2, continue: first.continue }).then(() => undefined, (e: unknown) => e);
    expired(err);
    expect(questions.slice(asked)).to.deep.equal([Number(first.resourceVersion) - 1]);
    const ahead = await cached.pageAhead(`${root}ns/`, { limit: 2, continue: first.continue });
    expect(ahead?.confirmAsks(), 'a read ahead page would ask').to.equal(true);
  });
});
