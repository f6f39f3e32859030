// Acceptance for service allocation across replicas: two replicas on one etcd create
// 500 services at once (alternating replicas, half of them NodePort); every cluster IP
// and node port is distinct, and deleting them gives every allocation back.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { request, startReplicas, testEtcdClient, type Cluster, type HttpResponse } from '../harness/index.js';

const total = 500;
const inFlight = 64;

/** Runs `fn` over 0..n-1 with at most `width` calls at once. */
async function pool(n: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await fn(next++);
  }));
}

describe('service allocation across replicas', function () {
  // About 15 s on an idle machine; the margin is for a loaded one (deletes then take seconds each).
  this.timeout(300_000);
  let cluster: Cluster;
  let etcd: Etcd3;
  const ns = 'alloc-' + Date.now().toString(36);
  const svcs = `/api/v1/namespaces/${ns}/services`;
  const call = <T = any>(replica: number, method: string, path: string, body?: unknown): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body });
  const claimed = async (which: 'serviceips' | 'servicenodeports'): Promise<string[]> => {
    const p = `${cluster.etcdPrefix}/ranges/${which}/`;
    return (await etcd.getAll().prefix(p).keys()).map((k) => k.slice(p.length)).sort();
  };
  /** What the services of every namespace hold, as the allocation keys should. */
  const held = async (): Promise<{ ips: string[]; ports: string[] }> => {
    const items = (await call(0, 'GET', '/api/v1/services')).body.items;
    return {
      ips: items.flatMap((s: any) => (s.spec.clusterIPs ?? []).filter((ip: string) => ip !== 'None')).sort(),
      ports: items.flatMap((s: any) => (s.spec.ports ?? []).map((p: any) => p.nodePort).filter(Boolean).map(String)).sort(),
    };
  };

  before(async () => {
    etcd = await testEtcdClient();
    cluster = await startReplicas(2, { extraArgs: ['--service-cluster-ip-range=10.96.0.0/22'] });
    expect((await call(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); etcd?.close(); });

  it('500 concurrent creates through two replicas get distinct IPs and node ports, all released on delete', async () => {
    const created: any[] = new Array(total);
    await pool(total, inFlight, async (i) => {
      const type = i % 4 < 2 ? 'NodePort' : 'ClusterIP';
      const res = await call(i % 2, 'POST', svcs, { metadata: { name: `s${i}` }, spec: { type, ports: [{ port: 80 }], selector: { app: `a${i}` } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      created[i] = res.body;
    });
    const ips = created.map((s) => s.spec.clusterIP);
    const ports = created.filter((s) => s.spec.type === 'NodePort').map((s) => s.spec.ports[0].nodePort);
    expect(ports).to.have.length(total / 2);
    expect(new Set(ips).size).to.equal(total);
    expect(new Set(ports).size).to.equal(total / 2);
    for (const ip of ips) expect(ip).to.match(/^10\.96\.[0-3]\.\d+$/);
    const state = await held();
    expect(await claimed('serviceips')).to.deep.equal(state.ips);
    expect(await claimed('servicenodeports')).to.deep.equal(state.ports);

    await pool(total, inFlight, async (i) => {
      const res = await call((i + 1) % 2, 'DELETE', `${svcs}/s${i}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });
    const after = await held();
    expect(after.ips.filter((ip) => ips.includes(ip))).to.deep.equal([]);
    expect(await claimed('serviceips')).to.deep.equal(after.ips);
    expect(await claimed('servicenodeports')).to.deep.equal(after.ports);

    // The freed values can be requested again, through either replica.
    const again = await call(1, 'POST', svcs, { metadata: { name: 'again' }, spec: { type: 'NodePort', clusterIP: ips[0], ports: [{ port: 80, nodePort: ports[0] }] } });
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    expect(again.body.spec.clusterIP).to.equal(ips[0]);
    expect(again.body.spec.ports[0].nodePort).to.equal(ports[0]);
  });
});
