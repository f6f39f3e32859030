// Watches through real replicas: changes made through one replica seen on the other,
// rv semantics, resumption from every event on the other replica, bookmarks and
// timeouts, selector transitions, single-object watches, the /watch/ prefix, WatchList,
// and a 410 ERROR event for a compacted revision and for one the watch cache let go of.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { request, startReplicas, until, watch, HttpError, type Cluster, type WatchStream, type WatchEvent } from '../harness/index.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';

// These tests count every ConfigMap in their namespace, so the root-CA publisher (which
// adds kube-root-ca.crt to each namespace) is off, as upstream runs such tests without
// a controller manager.
const withoutRootCA = ['--controllers=*,-root-ca-cert-publisher'];

interface Obj { kind?: string; apiVersion?: string; metadata: { name?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; data?: Record<string, string>; code?: number; reason?: string; message?: string }

function api(cluster: Cluster) {
  const creds = cluster.credentialsFor();
  return {
    creds,
    get: <T>(r: number, path: string) => request<T>(`${cluster.urls[r]}${path}`, creds),
    post: <T>(r: number, path: string, body: unknown) => request<T>(`${cluster.urls[r]}${path}`, { ...creds, method: 'POST', body }),
    put: <T>(r: number, path: string, body: unknown) => request<T>(`${cluster.urls[r]}${path}`, { ...creds, method: 'PUT', body }),
    del: <T>(r: number, path: string) => request<T>(`${cluster.urls[r]}${path}`, { ...creds, method: 'DELETE' }),
    watch: (r: number, path: string) => watch<Obj>(`${cluster.urls[r]}${path}`, creds),
  };
}

const brief = (e: WatchEvent<Obj>) => `${e.type} ${e.object.metadata?.name ?? ''}`;

async function take(w: WatchStream<Obj>, n: number, skipBookmarks = true): Promise<WatchEvent<Obj>[]> {
  const out: WatchEvent<Obj>[] = [];
  while (out.length < n) {
    const ev = await w.next(10_000);
    if (skipBookmarks && ev.type === 'BOOKMARK') continue;
    out.push(ev);
  }
  return out;
}

/** Nothing but bookmarks arrives for `ms`. */
async function quiet(w: WatchStream<Obj>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const ev = await w.next(Math.max(1, deadline - Date.now()));
      if (ev.type !== 'BOOKMARK') throw new Error(`unexpected event ${brief(ev)}`);
    } catch (err) {
      if (/unexpected event/.test((err as Error).message)) throw err;
      return;
    }
  }
}

describe('watch over HTTP (two replicas)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let a: ReturnType<typeof api>;
  const ns = `watch-${Date.now().toString(36)}`;
  const base = `/api/v1/namespaces/${ns}/configmaps`;

  before(async () => {
    cluster = await startReplicas(2, { extraArgs: withoutRootCA });
    a = api(cluster);
    expect((await a.post(0, '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('streams chunked JSON lines; rv unset gives the current state then changes made through the other replica', async () => {
    await a.post(0, base, { metadata: { name: 'pre' } });
    const w = await a.watch(1, `${base}?watch=1`);
    try {
      expect(w.status).to.equal(200);
      expect(w.headers['transfer-encoding']).to.equal('chunked');
      expect(w.headers['content-type']).to.match(/^application\/json/);
      expect((await take(w, 1)).map(brief)).to.deep.equal(['ADDED pre']);
      await a.post(0, base, { metadata: { name: 'x1' }, data: { v: '1' } });
      await a.put(0, `${base}/x1`, { metadata: { name: 'x1' }, data: { v: '2' } });
      await a.del(0, `${base}/x1`);
      const evs = await take(w, 3);
      expect(evs.map(brief)).to.deep.equal(['ADDED x1', 'MODIFIED x1', 'DELETED x1']);
      expect(evs[1].object.data).to.deep.equal({ v: '2' });
      expect(evs[0].object).to.deep.include({ kind: 'ConfigMap', apiVersion: 'v1' });
      expect(Number(evs[2].object.metadata.resourceVersion)).to.be.greaterThan(Number(evs[1].object.metadata.resourceVersion));
    } finally { w.close(); }
  });

  it('watch=true and rv=0 behave as rv unset; a non-zero rv gives only later changes', async () => {
    const list = await a.get<{ metadata: { resourceVersion: string }; items: Obj[] }>(0, base);
    const w0 = await a.watch(1, `${base}?watch=true&resourceVersion=0`);
    const wx = await a.watch(0, `${base}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
    try {
      expect((await take(w0, list.body.items.length)).every((e) => e.type === 'ADDED')).to.equal(true);
      await a.post(1, base, { metadata: { name: 'after-rv' } });
      expect((await take(wx, 1)).map(brief)).to.deep.equal(['ADDED after-rv']);
      expect((await take(w0, 1)).map(brief)).to.deep.equal(['ADDED after-rv']);
    } finally { w0.close(); wx.close(); }
  });

  it('resumes from every event\'s resourceVersion on the other replica with exactly the remaining events', async () => {
    const start = (await a.get<{ metadata: { resourceVersion: string } }>(0, base)).body.metadata.resourceVersion;
    for (let i = 0; i < 4; i++) await a.post(i % 2, base, { metadata: { name: `r${i}` } });
    await a.put(1, `${base}/r0`, { metadata: { name: 'r0' }, data: { k: 'v' } });
    await a.del(0, `${base}/r1`);
    const w = await a.watch(0, `${base}?watch=1&resourceVersion=${start}`);
    const all = await take(w, 6);
    w.close();
    expect(all.map(brief)).to.deep.equal(['ADDED r0', 'ADDED r1', 'ADDED r2', 'ADDED r3', 'MODIFIED r0', 'DELETED r1']);
    for (let i = 0; i < all.length; i++) {
      const resumed = await a.watch(1, `${base}?watch=1&resourceVersion=${all[i].object.metadata.resourceVersion}`);
      const rest = all.slice(i + 1).map((e) => `${brief(e)}@${e.object.metadata.resourceVersion}`);
      const got = (await take(resumed, rest.length)).map((e) => `${brief(e)}@${e.object.metadata.resourceVersion}`);
      await quiet(resumed, 150);
      resumed.close();
      expect(got, `from event ${i}`).to.deep.equal(rest);
    }
  });

  it('timeoutSeconds ends the stream cleanly, with a BOOKMARK first when bookmarks are allowed', async () => {
    const rv = (await a.get<{ metadata: { resourceVersion: string } }>(0, base)).body.metadata.resourceVersion;
    const started = Date.now();
    const w = await a.watch(1, `${base}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=2`);
    const ev = await w.next(5000);
    expect(ev.type).to.equal('BOOKMARK');
    expect(ev.object).to.deep.equal({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: ev.object.metadata.resourceVersion } });
    expect(Number(ev.object.metadata.resourceVersion)).to.be.at.least(Number(rv));
    // The end follows the bookmark; at CI's load, not necessarily within a fixed pause.
    await until('the stream to end', () => w.ended(), 5000, 10);
    expect(Date.now() - started).to.be.within(1800, 4000);
    const plainStarted = Date.now();
    const plain = await a.watch(0, `${base}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
    await until('the plain stream to end', () => plain.ended(), 5000, 10);
    expect(Date.now() - plainStarted).to.be.at.least(900);
    expect(plain.pending()).to.deep.equal([]);
  });

  it('label selector transitions: into the selection is ADDED, out of it DELETED (old content, new rv)', async () => {
    const w = await a.watch(1, `${base}?watch=1&labelSelector=app%3Dweb&resourceVersion=${(await a.get<{ metadata: { resourceVersion: string } }>(0, base)).body.metadata.resourceVersion}`);
    try {
      await a.post(0, base, { metadata: { name: 'sel', labels: { app: 'web' } }, data: { v: '1' } });
      await a.post(0, base, { metadata: { name: 'other', labels: { app: 'db' } } });
      const moved = await a.put<Obj>(0, `${base}/sel`, { metadata: { name: 'sel', labels: { app: 'db' } }, data: { v: '2' } });
      await a.put(0, `${base}/sel`, { metadata: { name: 'sel', labels: { app: 'web' } }, data: { v: '3' } });
      await a.put(0, `${base}/sel`, { metadata: { name: 'sel', labels: { app: 'web' } }, data: { v: '4' } });
      const evs = await take(w, 4);
      expect(evs.map(brief)).to.deep.equal(['ADDED sel', 'DELETED sel', 'ADDED sel', 'MODIFIED sel']);
      expect(evs[1].object.metadata.labels).to.deep.equal({ app: 'web' });
      expect(evs[1].object.data).to.deep.equal({ v: '1' });
      expect(evs[1].object.metadata.resourceVersion).to.equal(moved.body.metadata.resourceVersion);
      await quiet(w, 200);
    } finally { w.close(); }
  });

  it('a single object: fieldSelector=metadata.name and the deprecated /watch/ path (with a Warning header)', async () => {
    await a.post(0, base, { metadata: { name: 'solo' } });
    const byField = await a.watch(1, `${base}?watch=1&fieldSelector=metadata.name%3Dsolo`);
    const byPath = await a.watch(0, `/api/v1/watch/namespaces/${ns}/configmaps/solo`);
    const prefixed = await a.watch(1, `/api/v1/watch/namespaces/${ns}/configmaps?resourceVersion=0`);
    try {
      expect(byField.headers['warning']).to.equal(undefined);
      expect(byPath.headers['warning']).to.match(/^299 - ".*deprecated.*fieldSelector.*"$/);
      expect(prefixed.headers['warning']).to.match(/^299 - ".*deprecated.*"$/);
      expect((await take(byField, 1)).map(brief)).to.deep.equal(['ADDED solo']);
      expect((await take(byPath, 1)).map(brief)).to.deep.equal(['ADDED solo']);
      await a.post(1, base, { metadata: { name: 'solo-not' } });
      await a.put(1, `${base}/solo`, { metadata: { name: 'solo' }, data: { v: '1' } });
      expect((await take(byField, 1)).map(brief)).to.deep.equal(['MODIFIED solo']);
      expect((await take(byPath, 1)).map(brief)).to.deep.equal(['MODIFIED solo']);
      const names = new Set((await take(prefixed, 3 + 0)).map((e) => e.object.metadata.name));
      expect(names.size).to.be.greaterThan(0);
    } finally { byField.close(); byPath.close(); prefixed.close(); }
  });

  it('WatchList: initial state as ADDED, then a BOOKMARK annotated k8s.io/initial-events-end, then changes', async () => {
    const wl = `/api/v1/namespaces/${ns}/configmaps`;
    const items = (await a.get<{ items: Obj[] }>(0, wl)).body.items.map((i) => i.metadata.name).sort();
    const w = await a.watch(1, `${wl}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    try {
      const initial = await take(w, items.length);
      expect(initial.every((e) => e.type === 'ADDED')).to.equal(true);
      expect(initial.map((e) => e.object.metadata.name).sort()).to.deep.equal(items);
      const end = await w.next(10_000);
      expect(end.type).to.equal('BOOKMARK');
      expect(end.object.kind).to.equal('ConfigMap');
      expect(end.object.metadata.annotations).to.deep.equal({ 'k8s.io/initial-events-end': 'true' });
      expect(Number(end.object.metadata.resourceVersion)).to.be.at.least(Math.max(...initial.map((e) => Number(e.object.metadata.resourceVersion))));
      await a.post(0, wl, { metadata: { name: 'wl-new' } });
      expect((await take(w, 1)).map(brief)).to.deep.equal(['ADDED wl-new']);
    } finally { w.close(); }
  });

  it('refuses invalid watch options (422) and malformed resource versions (400) before streaming', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1', 422, /resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided/],
      ['watch=1&sendInitialEvents=true', 422, /sendInitialEvents requires setting resourceVersionMatch to NotOlderThan/],
      ['watch=1&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1', 422, /Unsupported value: "Exact": supported values: "NotOlderThan"/],
      ['watch=1&resourceVersion=abc', 400, /invalid resource version: abc/],
    ];
    for (const [q, code, msg] of cases) {
      let err: unknown;
      try { (await a.watch(0, `${base}?${q}`)).close(); } catch (e) { err = e; }
      expect(err, q).to.be.instanceOf(HttpError);
      expect((err as HttpError).status, q).to.equal(code);
      expect((JSON.parse((err as HttpError).text) as { message: string }).message, q).to.match(msg);
    }
  });
});

describe('watch over HTTP: compaction and progress bookmarks (own etcd)', function () {
  this.timeout(120_000);
  let etcd: TestCluster;
  let cluster: Cluster;
  let a: ReturnType<typeof api>;
  const base = '/api/v1/namespaces/default/configmaps';

  before(async () => {
    etcd = await startTestCluster(1, { progressNotifyInterval: '300ms' });
    // Events are never fresh, so each watch cache keeps upstream's lower bound of 100 events.
    cluster = await startReplicas(2, { etcdEndpoint: etcd.endpoints[0], extraArgs: withoutRootCA, env: { KUBE_WATCH_CACHE_EVENT_FRESH_MS: '0' } });
    a = api(cluster);
  });
  after(async () => {
    await cluster?.stop();
    await etcd?.stop();
  });

  it('a watch from a compacted revision gets one ERROR event holding a 410 Expired Status, then the stream ends', async () => {
    const first = await a.post<Obj>(0, base, { metadata: { name: 'c1' } });
    const oldRV = Number(first.body.metadata.resourceVersion);
    await a.put(0, `${base}/c1`, { metadata: { name: 'c1' }, data: { v: '2' } });
    const client = new Etcd3({ hosts: etcd.endpoints });
    let compactAt: number;
    try {
      compactAt = Number((await client.kv.range({ key: Buffer.from([0]), limit: 1 })).header.revision);
      await client.kv.compact({ revision: String(compactAt), physical: true });
    } finally { client.close(); }
    const w = await a.watch(1, `${base}?watch=1&resourceVersion=${oldRV - 1}`);
    const ev = await w.next(10_000);
    expect(ev.type).to.equal('ERROR');
    expect(ev.object).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `too old resource version: ${oldRV - 1} (${compactAt - 1})`, reason: 'Expired', code: 410,
    });
    await until('the stream to end after the ERROR', () => w.ended(), 5000, 10);
    expect(w.pending()).to.deep.equal([]);
  });

  it('a watch from a revision the watch cache let go of gets one ERROR event holding a 410 Expired Status; a reflector\'s re-list and watch then go on', async () => {
    const ns = `ring-${Date.now().toString(36)}`;
    expect((await a.post(0, '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    const coll = `/api/v1/namespaces/${ns}/configmaps`;
    // Replica 1's cache of configmaps has started (a list) before the first write below,
    // and a watch of it shows when it has applied the last one.
    const listed = await a.get<{ metadata: { resourceVersion: string } }>(1, coll);
    const live = await a.watch(1, `${coll}?watch=1&resourceVersion=${listed.body.metadata.resourceVersion}`);
    const revs: number[] = [];
    try {
      for (let i = 0; i < 106; i++) revs.push(Number((await a.post<Obj>(0, coll, { metadata: { name: `f${i}` } })).body.metadata.resourceVersion));
      expect((await take(live, 106)).map((e) => e.object.metadata.name)).to.deep.equal(revs.map((_, i) => `f${i}`));
    } finally { live.close(); }
    // The ring holds the newest 100 configmap events, f6..f105: a watch from f0 is too old.
    const w = await a.watch(1, `${coll}?watch=1&resourceVersion=${revs[0]}&allowWatchBookmarks=true`);
    expect(w.status).to.equal(200);
    const ev = await w.next(10_000);
    expect(ev.type).to.equal('ERROR');
    expect(ev.object).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `too old resource version: ${revs[0]} (${revs[6] - 1})`, reason: 'Expired', code: 410,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(w.ended()).to.equal(true);
    // client-go's reflector re-lists from the last revision it saw (no limit: NotOlderThan),
    // then watches from the list's revision.
    const relist = await a.get<{ metadata: { resourceVersion: string }; items: Obj[] }>(1, `${coll}?resourceVersion=${revs[0]}`);
    expect(relist.status).to.equal(200);
    expect(relist.body.items.map((o) => o.metadata.name)).to.have.members(revs.map((_, i) => `f${i}`));
    expect(Number(relist.body.metadata.resourceVersion)).to.be.at.least(revs[105]);
    const again = await a.watch(1, `${coll}?watch=1&resourceVersion=${relist.body.metadata.resourceVersion}`);
    try {
      await a.del(0, `${coll}/f0`);
      expect((await take(again, 1)).map(brief)).to.deep.equal(['DELETED f0']);
    } finally { again.close(); }
  });

  it('a watch on replica 1 survives etcd being killed and restarted: every change once, in order', async () => {
    const rv = (await a.get<{ metadata: { resourceVersion: string } }>(0, base)).body.metadata.resourceVersion;
    const w = await a.watch(1, `${base}?watch=1&resourceVersion=${rv}`);
    try {
      await a.post(0, base, { metadata: { name: 'before-kill' } });
      expect((await take(w, 1)).map(brief)).to.deep.equal(['ADDED before-kill']);
      await etcd.kill(0);
      await new Promise((r) => setTimeout(r, 1000));
      await etcd.start(0);
      // Writes may fail until the replica's client reconnects; retry them.
      for (const name of ['after-1', 'after-2']) {
        for (let attempt = 0; ; attempt++) {
          const res = await a.post(0, base, { metadata: { name } }).catch(() => undefined);
          if (res && (res.status === 201 || res.status === 409)) break;
          if (attempt > 50) throw new Error(`cannot write ${name}: ${res?.status} ${res?.text}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const evs = await take(w, 2);
      expect(evs.map(brief)).to.deep.equal(['ADDED after-1', 'ADDED after-2']);
      await quiet(w, 300);
      expect(w.ended()).to.equal(false);
    } finally { w.close(); }
  });

  it('bookmarks before the timeout carry revisions that advanced with writes to other resources', async () => {
    const rv = (await a.get<{ metadata: { resourceVersion: string } }>(0, base)).body.metadata.resourceVersion;
    const w = await a.watch(1, `${base}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=2`);
    await a.post(0, '/api/v1/namespaces', { metadata: { name: `elsewhere-${Date.now().toString(36)}` } });
    const ev = await w.next(5000);
    w.close();
    expect(ev.type).to.equal('BOOKMARK');
    expect(Number(ev.object.metadata.resourceVersion)).to.be.greaterThan(Number(rv));
  });
});
