// The watch cache's current objects once frozen: when the ring lets go of the event that
// made an object, the cache keeps it as one string (cold-version.ts) and decodes it when
// read. Reads, changes and deletions of such an object answer as for a decoded one.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../pkg/runtime/object.js';
import type { WatchEvent } from '../../pkg/storage/interfaces.js';
import { EtcdStorage } from '../../pkg/storage/etcd/store.js';
import { WatchCache } from '../../pkg/storage/cacher/watch-cache.js';
import { ColdVersion, thawed } from '../../pkg/storage/cacher/cold-version.js';
import { testEtcdClient, uniquePrefix } from '../harness/index.js';

const cm = (name: string, v: string): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', labels: { v } }, data: { v } } as KubeObject);

describe('storage: watch cache, objects frozen once the ring lets go of them', function () {
  this.timeout(60_000);
  let client: Etcd3;
  let etcd: EtcdStorage;
  const caches: WatchCache[] = [];
  before(async () => { client = await testEtcdClient(); etcd = new EtcdStorage(client); });
  after(() => { for (const c of caches) c.stop(); client?.close(); });

  /** A cache with a ring of two events, started before the writes, and a wait for it to reach a revision. */
  const twoEventCache = async (root: string) => {
    const cache = new WatchCache(client, root, { ring: { lowerBound: 2, upperBound: 2 }, maxPending: 100 });
    caches.push(cache);
    await cache.start();
    const reach = async (rev: string): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (await cache.revision() < Number(rev)) {
        if (Date.now() > deadline) throw new Error(`cache did not reach ${rev}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    return { cache, reach };
  };
  const contentOf = (o: KubeObject | undefined) => o && `${o.metadata.name} v=${(o.data as Record<string, string>).v} @${o.metadata.resourceVersion}`;

  it('reads, lists, changes and deletes a frozen object as a decoded one, and resumes a watch across them', async () => {
    const root = `${uniquePrefix('cacher-cold')}/configmaps/`;
    const { cache, reach } = await twoEventCache(root);
    const created: Record<string, string> = {};
    for (const n of ['a', 'b', 'c', 'd']) created[n] = (await etcd.create(`${root}ns/${n}`, cm(n, '1'))).metadata.resourceVersion!;
    await reach(created.d!);
    // The ring holds c's and d's events: a and b are frozen, c and d still decoded.
    const present = cache.historyView(Number(created.d))!.objects;
    expect(['a', 'b', 'c', 'd'].map((n) => present.get(`${root}ns/${n}`) instanceof ColdVersion)).to.deep.equal([true, true, false, false]);
    expect(contentOf(cache.peek(`${root}ns/a`))).to.equal(`a v=1 @${created.a}`);
    const listed = await cache.read(`${root}ns`, true);
    expect(listed!.items.map(contentOf)).to.deep.equal(['a', 'b', 'c', 'd'].map((n) => `${n} v=1 @${created[n]}`));

    const live = (await cache.watch(`${root}ns`, true, Number(created.d)))!;
    const seen: WatchEvent[] = [];
    void (async () => { for await (const ev of live) seen.push(ev); })();
    const updated = (await etcd.guaranteedUpdate(`${root}ns/a`, undefined, async (cur) => ({ ...cur!, data: { v: '2' } }))).object.metadata.resourceVersion!;
    await etcd.delete(`${root}ns/b`);
    const deadline = Date.now() + 5_000;
    while (seen.filter((e) => e.type !== 'BOOKMARK').length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const changes = seen.filter((e) => e.type !== 'BOOKMARK');
    expect(changes.map((e) => `${e.type} ${contentOf(e.object)} was ${contentOf(e.previous)}`)).to.deep.equal([
      `MODIFIED a v=2 @${updated} was a v=1 @${created.a}`,
      `DELETED b v=1 @${changes[1]?.object.metadata.resourceVersion} was b v=1 @${changes[1]?.object.metadata.resourceVersion}`,
    ]);
    expect(Number(changes[1]!.object.metadata.resourceVersion)).to.be.greaterThan(Number(updated));
    // The ring now holds those two events, whose earlier versions were frozen ones: a watch resumed before them replays both.
    const replay = (await cache.watch(`${root}ns`, true, Number(updated) - 1))!;
    const replayed: string[] = [];
    for await (const ev of replay) {
      if (ev.type !== 'BOOKMARK') replayed.push(`${ev.type} ${contentOf(ev.object)} was ${contentOf(ev.previous)}`);
      if (replayed.length === 2) break;
    }
    expect(replayed).to.deep.equal(changes.map((e) => `${e.type} ${contentOf(e.object)} was ${contentOf(e.previous)}`));
    // And the state at the revision before the update, from the frozen versions.
    const then = cache.historyView(Number(updated) - 1)!;
    expect(contentOf(thenObject(then, `${root}ns/a`))).to.equal(`a v=1 @${created.a}`);
    expect(contentOf(thenObject(then, `${root}ns/b`))).to.equal(`b v=1 @${created.b}`);
  });
});

/** A key's object at a history view's revision: rolled back where it changed since. */
function thenObject(view: NonNullable<ReturnType<WatchCache['historyView']>>, key: string): KubeObject | undefined {
  return thawed(view.then.has(key) ? view.then.get(key) : view.objects.get(key));
}
