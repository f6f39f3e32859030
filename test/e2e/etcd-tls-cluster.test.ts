// Two replicas on a three-member etcd that requires client certificates on its client
// and peer ports, as a kubeadm control plane's: the etcd leader killed and restarted twice
// under concurrent writers and watchers loses nothing and no watch event is missed or
// repeated; two members of three stopped gives upstream's codes within the request
// timeout and /readyz failing on etcd with the reason, and the replicas recover by
// themselves when the members return.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { createEtcdPki, etcdClientArgs, etcdServerTLS } from '../harness/etcd-tls.js';
import { request, startReplicas, until, watch, type Cluster, type WatchStream } from '../harness/index.js';

type Meta = { metadata: { name: string; resourceVersion: string } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('e2e: replicas on a three-member mutual-TLS etcd', function () {
  this.timeout(180_000);
  let dir: string;
  let etcd: TestCluster;
  let replicas: Cluster;
  const ns = 'default';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'etcd-tls-cluster-'));
    const pki = await createEtcdPki(join(dir, 'pki'));
    etcd = await startTestCluster(3, { tls: etcdServerTLS(pki) });
    replicas = await startReplicas(2, {
      etcdEndpoint: etcd.endpoints.join(','),
      extraArgs: [...etcdClientArgs(pki), '--request-timeout=20s'],
    });
  });
  after(async () => {
    await replicas?.stop();
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const url = (i: number, path: string) => `${replicas.urls[i]}${path}`;

  it('the leader killed and restarted twice under writers and watchers: nothing lost, no event missed or repeated', async () => {
    const creds = replicas.credentialsFor();
    const start = await request<{ metadata: { resourceVersion: string } }>(url(0, `/api/v1/namespaces/${ns}/configmaps`), creds);
    const rv = start.body.metadata.resourceVersion;
    const watches: WatchStream<Meta>[] = await Promise.all([0, 1].map((i) =>
      watch<Meta>(url(i, `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}&allowWatchBookmarks=false`), creds)));
    const created = new Set<string>();
    const outsideWindow: string[] = [];
    let inWindow = false;
    // Windows opened so far: a request is in a window if one was open at any time while it waited.
    let windowsOpened = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const name = `w${w}-${n}`;
        for (;;) {
          const [sentIn, sentAfter] = [inWindow, windowsOpened];
          const r = await request(url(w % 2, `/api/v1/namespaces/${ns}/configmaps`), { ...creds, method: 'POST', body: { metadata: { name }, data: { n: String(n) } }, timeoutMs: 30_000 })
            .catch((e: Error) => ({ status: 0, text: e.message }));
          if (r.status === 201 || r.status === 409) { created.add(name); break; }
          // A write in flight when the leader died may wait out etcd's own timeout and be
          // answered after the window: it overlapped the window all the same.
          const overlapped = sentIn || inWindow || windowsOpened !== sentAfter;
          if (r.status >= 500 && !overlapped) outsideWindow.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
          // An unknown outcome: retried; 409 then says the first attempt was applied.
          await sleep(100);
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    for (let round = 0; round < 2; round++) {
      await sleep(1500);
      const leader = await etcd.leader();
      inWindow = true;
      windowsOpened++;
      await etcd.kill(leader);
      await sleep(1000);
      await etcd.start(leader);
      await sleep(1500);
      inWindow = false;
    }
    await sleep(1000);
    stop = true;
    await Promise.all(writers);
    expect(created.size).to.be.greaterThan(20);
    // Every replica's watch sees every object exactly once, in order of resourceVersion.
    for (const w of watches) {
      const seen: Meta[] = [];
      const types = new Set<string>();
      await until('every create in the watch', () => {
        for (const e of w.pending()) { types.add(e.type); seen.push(e.object); }
        return seen.length >= created.size;
      }, 30_000, 200);
      await sleep(500);
      for (const e of w.pending()) { types.add(e.type); seen.push(e.object); }
      expect([...types]).to.deep.equal(['ADDED']);
      const names = seen.map((o) => o.metadata.name);
      expect(new Set(names).size, 'no event repeated').to.equal(names.length);
      expect([...created].filter((n) => !names.includes(n)), 'no event missed').to.deep.equal([]);
      const rvs = seen.map((o) => Number(o.metadata.resourceVersion));
      expect(rvs, 'in order').to.deep.equal([...rvs].sort((a, b) => a - b));
      w.close();
    }
    const list = await request<{ items: Meta[] }>(url(1, `/api/v1/namespaces/${ns}/configmaps`), creds);
    const stored = new Set(list.body.items.map((i) => i.metadata.name));
    expect([...created].filter((n) => !stored.has(n)), 'nothing lost').to.deep.equal([]);
    expect(outsideWindow, '5xx outside the leader-election windows').to.deep.equal([]);
  });

  it('two members of three stopped: upstream\'s codes within the request timeout, /readyz fails on etcd with the reason, recovery when they return', async () => {
    const creds = replicas.credentialsFor();
    const leader = await etcd.leader();
    const stopped = [0, 1, 2].filter((i) => i !== leader).slice(0, 1).concat([leader]);
    for (const i of stopped) await etcd.kill(i);
    const t0 = Date.now();
    const write = await request<{ reason: string; code: number }>(url(0, `/api/v1/namespaces/${ns}/configmaps`), { ...creds, method: 'POST', body: { metadata: { name: 'no-quorum' } }, timeoutMs: 40_000 });
    const took = Date.now() - t0;
    expect(write.status, write.text).to.be.oneOf([503, 504]);
    expect(write.body.reason).to.be.oneOf(['ServiceUnavailable', 'Timeout']);
    expect(took).to.be.lessThan(25_000);
    const read = await request<{ reason: string }>(url(1, `/api/v1/namespaces/${ns}/configmaps/w0-0`), { ...creds, timeoutMs: 40_000 });
    expect(read.status, read.text).to.be.oneOf([503, 504]);
    const ready = await until('readyz failing', async () => {
      const r = await request(url(0, '/readyz?verbose'), creds);
      return r.status === 500 ? r : undefined;
    }, 30_000, 500);
    expect(ready.text).to.include('[-]etcd-readiness failed: reason withheld');
    const reason = await request(url(0, '/readyz/etcd-readiness'), creds);
    expect(reason.status).to.equal(500);
    expect(reason.text).to.match(/^internal server error: error getting data from etcd: /);

    for (const i of stopped) await etcd.start(i);
    await until('both replicas ready again', async () =>
      (await Promise.all([0, 1].map((i) => request(url(i, '/readyz'), creds)))).every((r) => r.status === 200), 60_000, 500);
    const after = await request(url(1, `/api/v1/namespaces/${ns}/configmaps`), { ...creds, method: 'POST', body: { metadata: { name: 'quorum-back' } } });
    expect(after.status).to.equal(201);
  });
});
