// EtcdStorage.watch against real etcd: initial state, exact resumption (also from another
// client, as another replica would), bookmarks from progress notifications, compaction
// as one 410 ERROR event, and compaction of list continue tokens and Exact lists.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../pkg/runtime/object.js';
import { StatusError } from '../../pkg/runtime/errors.js';
import { StorageError, type WatchEvent, type WatchStream } from '../../pkg/storage/interfaces.js';
import { storageImpls, type ContractStorage } from './storage-impls.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { deleteRevisionWithin, testEtcdClient, uniquePrefix } from '../harness/index.js';

function cm(name: string, v = '1'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } } as KubeObject;
}

/** Reads events as they come; `take(n)` waits for n more. */
function reader(w: WatchStream) {
  const events: WatchEvent[] = [];
  let notify: (() => void) | undefined;
  let ended = false;
  void (async () => {
    for await (const ev of w) { events.push(ev); notify?.(); }
    ended = true;
    notify?.();
  })();
  return {
    events,
    get ended() { return ended; },
    async until(pred: () => boolean, ms = 10_000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`timed out; events: ${JSON.stringify(events.map(brief))}`);
        await new Promise<void>((r) => { notify = r; setTimeout(r, 50); });
      }
    },
  };
}

const brief = (e: WatchEvent) => `${e.type} ${e.object.metadata.name ?? ''}@${e.object.metadata.resourceVersion ?? ''}`;
const changes = (evs: WatchEvent[]) => evs.filter((e) => e.type !== 'BOOKMARK').map(brief);

for (const impl of storageImpls) {
describe(`storage: watch [${impl.name}]`, function () {
  this.timeout(60_000);
  let client: Etcd3;
  let s: ContractStorage;

  before(async () => {
    client = await testEtcdClient();
    s = impl.make(client);
  });
  after(() => { s?.stop?.(); client?.close(); });

  it('with initial events: ADDED for the current state, an initial-events-end bookmark at the list revision, then changes', async () => {
    const p = `${uniquePrefix('watch-initial')}/cms/ns/`;
    const a = await s.create(`${p}a`, cm('a'));
    const b = await s.create(`${p}b`, cm('b'));
    const w = await s.watch(p, { recursive: true, sendInitialEvents: true });
    const r = reader(w);
    const c = await s.create(`${p}c`, cm('c'));
    const b2 = await s.guaranteedUpdate(`${p}b`, undefined, async (cur) => ({ ...cur, data: { v: '2' } } as KubeObject));
    const gone = await s.delete(`${p}a`);
    expect(gone.metadata.name).to.equal('a');
    await r.until(() => changes(r.events).length >= 5);
    w.stop();
    const listRV = Number(b.metadata.resourceVersion);
    const end = r.events.find((e) => e.type === 'BOOKMARK' && e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true');
    expect(Number(end?.object.metadata.resourceVersion)).to.be.at.least(listRV);
    expect(r.events.indexOf(end!)).to.equal(2);
    const deletedRV = deleteRevisionWithin(changes(r.events)[4] ?? '', b2.object.metadata.resourceVersion, await s.currentRevision());
    expect(changes(r.events)).to.deep.equal([
      `ADDED a@${a.metadata.resourceVersion}`, `ADDED b@${b.metadata.resourceVersion}`,
      `ADDED c@${c.metadata.resourceVersion}`, `MODIFIED b@${b2.object.metadata.resourceVersion}`, `DELETED a@${deletedRV}`,
    ]);
    const modified = r.events.find((e) => e.type === 'MODIFIED')!;
    expect((modified.previous as { data?: Record<string, string> }).data?.v).to.equal('1');
  });

  it('from a resourceVersion: only the changes after exactly it, no initial state', async () => {
    const p = `${uniquePrefix('watch-exact')}/cms/ns/`;
    const a = await s.create(`${p}a`, cm('a'));
    const a2 = await s.guaranteedUpdate(`${p}a`, undefined, async (cur) => ({ ...cur, data: { v: '2' } } as KubeObject));
    const w = await s.watch(p, { recursive: true, resourceVersion: a.metadata.resourceVersion });
    const r = reader(w);
    await r.until(() => changes(r.events).length >= 1);
    await new Promise((res) => setTimeout(res, 200));
    w.stop();
    expect(changes(r.events)).to.deep.equal([`MODIFIED a@${a2.object.metadata.resourceVersion}`]);
  });

  it('without initial events from now: nothing old, then changes', async () => {
    const p = `${uniquePrefix('watch-now')}/cms/ns/`;
    await s.create(`${p}old`, cm('old'));
    const w = await s.watch(p, { recursive: true, resourceVersion: '', sendInitialEvents: false });
    const r = reader(w);
    const n = await s.create(`${p}new`, cm('new'));
    await r.until(() => changes(r.events).length >= 1);
    w.stop();
    expect(changes(r.events)).to.deep.equal([`ADDED new@${n.metadata.resourceVersion}`]);
    expect(r.events[0].type).to.equal('BOOKMARK');
  });

  it('coalesced creates share one transaction and revision; a key that exists fails alone; a watch sees each ADDED once', async () => {
    const p = `${uniquePrefix('watch-coalesced')}/cms/ns/`;
    const taken = await s.create(`${p}taken`, cm('taken'));
    const w = await s.watch(p, { recursive: true, resourceVersion: taken.metadata.resourceVersion });
    const r = reader(w);
    const together = await Promise.all(['a', 'b', 'c'].map((n) => s.create(`${p}${n}`, cm(n), { coalesce: true })));
    const revs = together.map((o) => o.metadata.resourceVersion);
    expect(new Set(revs).size, 'one revision').to.equal(1);
    // With a key that exists in the same flush (and the same key twice): the others are written one by one.
    const mixed = await Promise.allSettled(['d', 'taken', 'e', 'e'].map((n) => s.create(`${p}${n}`, cm(n), { coalesce: true })));
    // Which of the two creates of `e` wins is a race; exactly one does.
    const eWon = mixed[2]!.status === 'fulfilled' ? 2 : 3;
    expect(mixed.map((m) => m.status)).to.deep.equal(['fulfilled', 'rejected', ...(eWon === 2 ? ['fulfilled', 'rejected'] : ['rejected', 'fulfilled'])]);
    for (const i of [1, 5 - eWon]) expect((mixed[i] as PromiseRejectedResult).reason).to.be.instanceOf(StorageError).and.have.property('code', 'KeyExists');
    const [d, e] = [mixed[0], mixed[eWon]].map((m) => (m as PromiseFulfilledResult<KubeObject>).value.metadata.resourceVersion);
    await r.until(() => changes(r.events).length >= 5);
    await new Promise((res) => setTimeout(res, 200));
    w.stop();
    const oneByOne = [[`ADDED d@${d}`, Number(d)], [`ADDED e@${e}`, Number(e)]] as const;
    expect(changes(r.events)).to.deep.equal([...['a', 'b', 'c'].map((n) => `ADDED ${n}@${revs[0]}`),
      ...[...oneByOne].sort((x, y) => x[1] - y[1]).map((x) => x[0])]);
  });

  it('a single key: its own changes only', async () => {
    const p = `${uniquePrefix('watch-key')}/cms/ns/`;
    const w = await s.watch(`${p}one`, { recursive: false, sendInitialEvents: true });
    const r = reader(w);
    await s.create(`${p}one-more`, cm('one-more'));
    const one = await s.create(`${p}one`, cm('one'));
    await r.until(() => changes(r.events).length >= 1);
    await new Promise((res) => setTimeout(res, 100));
    w.stop();
    expect(changes(r.events)).to.deep.equal([`ADDED one@${one.metadata.resourceVersion}`]);
  });

  it('resuming from each event\'s resourceVersion through another client gives exactly the rest', async () => {
    const p = `${uniquePrefix('watch-resume')}/cms/ns/`;
    const start = await s.currentRevision();
    for (let i = 0; i < 12; i++) {
      if (i % 4 === 3) await s.delete(`${p}k${i - 1}`);
      else await s.create(`${p}k${i}`, cm(`k${i}`));
    }
    const w = await s.watch(p, { recursive: true, resourceVersion: start });
    const r = reader(w);
    await r.until(() => changes(r.events).length >= 12);
    w.stop();
    const all = r.events.filter((e) => e.type !== 'BOOKMARK');
    const other = new Etcd3({ hosts: process.env['TEST_ETCD_ENDPOINT']! });
    const replica = impl.make(other);
    try {
      for (let i = 0; i < all.length; i++) {
        const resumed = await replica.watch(p, { recursive: true, resourceVersion: all[i].object.metadata.resourceVersion });
        const rr = reader(resumed);
        const rest = all.slice(i + 1).map(brief);
        if (rest.length > 0) await rr.until(() => changes(rr.events).length >= rest.length);
        else await new Promise((res) => setTimeout(res, 100));
        resumed.stop();
        expect(changes(rr.events), `from event ${i}`).to.deep.equal(rest);
      }
    } finally {
      other.close();
    }
  });
});
}

for (const impl of storageImpls) {
describe(`storage: progress bookmarks and compaction (own etcd) [${impl.name}]`, function () {
  this.timeout(60_000);
  let cluster: TestCluster;
  let client: Etcd3;
  let s: ContractStorage;

  before(async () => {
    cluster = await startTestCluster(1, { progressNotifyInterval: '300ms' });
    client = new Etcd3({ hosts: cluster.endpoints });
    s = impl.make(client);
  });
  after(async () => {
    s?.stop?.();
    client?.close();
    await cluster?.stop();
  });

  it('with a trigger: every event of an object that has or had the value arrives, in order, moves out included', async () => {
    const p = `${uniquePrefix('watch-trigger')}/pods/ns/`;
    const pod = (name: string, node: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: node } } as KubeObject);
    const nodeOf = (o: KubeObject) => String((o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '');
    const trigger = { field: 'spec.nodeName', value: 'n1', extract: nodeOf };
    await s.create(`${p}old`, pod('old', 'n1'));
    const w = await s.watch(p, { recursive: true, sendInitialEvents: true, trigger });
    const r = reader(w);
    const a = await s.create(`${p}a`, pod('a', 'n1'));
    await s.create(`${p}b`, pod('b', 'n2'));
    const moved = await s.guaranteedUpdate(`${p}b`, undefined, async (cur) => ({ ...cur, spec: { nodeName: 'n1' } } as KubeObject));
    const left = await s.guaranteedUpdate(`${p}a`, undefined, async (cur) => ({ ...cur, spec: { nodeName: 'n3' } } as KubeObject));
    const c = await s.create(`${p}c`, pod('c', 'n2'));
    await s.delete(`${p}b`);
    await r.until(() => r.events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'b'));
    w.stop();
    const upTo = await s.currentRevision();
    // etcd has no triggers and sends everything; the cache sends only these. Both send these.
    const concerned = r.events.filter((e) => e.type !== 'BOOKMARK' && (nodeOf(e.object) === 'n1' || (e.previous && nodeOf(e.previous) === 'n1')));
    expect(concerned.map(brief)).to.deep.equal([
      `ADDED old@${concerned[0]!.object.metadata.resourceVersion}`,
      `ADDED a@${a.metadata.resourceVersion}`, `MODIFIED b@${moved.object.metadata.resourceVersion}`,
      `MODIFIED a@${left.object.metadata.resourceVersion}`, `DELETED b@${deleteRevisionWithin(brief(concerned[4]!), c.metadata.resourceVersion, upTo)}`,
    ]);
    expect(nodeOf(concerned[3]!.previous!)).to.equal('n1');
  });

  it('progress notifications become BOOKMARK events at revisions past writes elsewhere', async () => {
    const w = await s.watch('/quiet/', { recursive: true, resourceVersion: '' , sendInitialEvents: false });
    const r = reader(w);
    await s.create('/elsewhere/x', cm('x'));
    const rev = Number(await s.currentRevision());
    await r.until(() => r.events.some((e) => e.type === 'BOOKMARK' && Number(e.object.metadata.resourceVersion) >= rev));
    w.stop();
    expect(changes(r.events)).to.deep.equal([]);
  });

  it('after compaction: a watch from a compacted revision gets one 410 Expired ERROR, lists get 410, tokens get a fresh token', async () => {
    const p = '/compaction/cms/ns/';
    for (let i = 0; i < 6; i++) await s.create(`${p}c${i}`, cm(`c${i}`));
    const before = await s.list(p, { limit: 2 });
    const oldRV = Number(before.resourceVersion);
    await s.guaranteedUpdate(`${p}c0`, undefined, async (cur) => ({ ...cur, data: { v: '2' } } as KubeObject));
    await s.create(`${p}c9`, cm('c9'));
    const compactAt = Number(await s.currentRevision());
    // A live cache has seen every write before a compaction: its etcd watch is caught up, so
    // etcd does not cancel it. One whose watch was not yet established (it starts a moment
    // after the cache's list, here in the same breath as the writes) is cancelled, restarts
    // and answers a watch from before its new list 410, as upstream's: not what this tests.
    const live = await s.watch(p, { recursive: true, resourceVersion: String(compactAt - 1) });
    const seen = reader(live);
    await seen.until(() => changes(seen.events).length >= 1);
    live.stop();
    await client.kv.compact({ revision: String(compactAt), physical: true });

    const w = await s.watch(p, { recursive: true, resourceVersion: String(oldRV - 1) });
    const r = reader(w);
    await r.until(() => r.ended);
    const errorsOut = r.events.filter((e) => e.type === 'ERROR');
    expect(errorsOut).to.have.length(1);
    expect(errorsOut[0].object).to.deep.include({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410,
      message: `too old resource version: ${oldRV - 1} (${compactAt - 1})`,
    });
    expect(changes(r.events)).to.deep.equal([`ERROR @`]);

    // Exact list at the compacted revision.
    let err: unknown;
    try { await s.list(p, { resourceVersion: String(oldRV), resourceVersionMatch: 'Exact' }); } catch (e) { err = e; }
    expect(err).to.be.instanceOf(StorageError);
    expect((err as StorageError).code).to.equal('ResourceVersionGone');
    expect((err as Error).message).to.equal('The resourceVersion for the provided list is too old.');

    // Continue token at the compacted revision: 410 with a token to continue at the newest.
    err = undefined;
    try { await s.list(p, { limit: 2, continue: before.continue }); } catch (e) { err = e; }
    expect(err).to.be.instanceOf(StatusError);
    const status = (err as StatusError).toStatus();
    expect(status).to.deep.include({ code: 410, reason: 'Expired' });
    expect(status.message).to.match(/^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/);
    const fresh = (status.metadata as { continue: string }).continue;
    expect(JSON.parse(Buffer.from(fresh, 'base64url').toString())).to.deep.include({ rv: -1, start: 'c1\u0000' });
    const rest = await s.list(p, { limit: 10, continue: fresh });
    expect(rest.items.map((i) => i.metadata.name)).to.deep.equal(['c2', 'c3', 'c4', 'c5', 'c9']);
    expect(Number(rest.resourceVersion)).to.equal(compactAt);

    // The compacted revision itself is still readable, and watchable from one before it.
    const atCompact = await s.list(p, { resourceVersion: String(compactAt), resourceVersionMatch: 'Exact' });
    expect(atCompact.items).to.have.length(7);
    const ok = await s.watch(p, { recursive: true, resourceVersion: String(compactAt - 1) });
    const ro = reader(ok);
    await ro.until(() => changes(ro.events).length >= 1);
    ok.stop();
    expect(changes(ro.events)).to.deep.equal([`ADDED c9@${compactAt}`]);
  });
});
}
