// --etcd-compaction-interval: replicas compact etcd history themselves, so a list or
// watch at a revision older than the previous interval is 410 Expired, while recent
// history stays usable. Uses a private etcd: compaction would cut other suites' history.
import { expect } from 'chai';
import { request, startReplicas, startTestEtcd, watch, type Cluster, type TestEtcd } from '../harness/index.js';

describe('etcd compaction driven by --etcd-compaction-interval', function () {
  this.timeout(60_000);
  let etcd: TestEtcd;
  let cluster: Cluster;
  const ns = 'default';

  before(async () => {
    etcd = await startTestEtcd();
    cluster = await startReplicas(2, { etcdEndpoint: etcd.endpoint, extraArgs: ['--etcd-compaction-interval=1s'] });
  });
  after(async () => {
    await cluster?.stop();
    await etcd?.stop();
  });

  it('expires history older than the previous interval, for Exact lists and for watches', async () => {
    const creds = cluster.credentialsFor('admin');
    const created = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps`, {
      ...creds, method: 'POST', body: { metadata: { name: 'old' }, data: { n: '0' } },
    });
    expect(created.status).to.equal(201);
    const oldRV = (created.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    // Recent history is still there right after the write.
    const fresh = await request(`${cluster.urls[1]}/api/v1/namespaces/${ns}/configmaps?resourceVersion=${oldRV}&resourceVersionMatch=Exact`, creds);
    expect(fresh.status).to.equal(200);
    // Keep writing so compaction has newer revisions to keep.
    const deadline = Date.now() + 20_000;
    let expired: Awaited<ReturnType<typeof request>> | undefined;
    for (let i = 1; Date.now() < deadline; i++) {
      await request(`${cluster.urls[i % 2]}/api/v1/namespaces/${ns}/configmaps/old`, {
        ...creds, method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { n: String(i) } }),
      });
      // A watch from oldRV starts at oldRV+1, so wait until that revision is compacted too
      // (etcd keeps the compaction revision itself).
      const r = await request(`${cluster.urls[1]}/api/v1/namespaces/${ns}/configmaps?resourceVersion=${Number(oldRV) + 1}&resourceVersionMatch=Exact`, creds);
      if (r.status === 410) { expired = r; break; }
      expect(r.status).to.equal(200);
      await new Promise((res) => setTimeout(res, 300));
    }
    expect(expired, 'history was never compacted').to.not.equal(undefined);
    expect(expired!.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    const atOld = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps?resourceVersion=${oldRV}&resourceVersionMatch=Exact`, creds);
    expect(atOld.status).to.equal(410);

    const w = await watch(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${oldRV}`, creds).catch((e: { status?: number }) => e);
    if ('status' in w && w.status === 410) return; // refused before streaming: also upstream's behaviour
    const ev = await (w as Awaited<ReturnType<typeof watch>>).next(5000) as { type: string; object: { code: number; reason: string } };
    (w as Awaited<ReturnType<typeof watch>>).close();
    expect(ev.type).to.equal('ERROR');
    expect(ev.object).to.deep.include({ code: 410, reason: 'Expired' });
  });
});
