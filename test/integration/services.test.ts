// Services through HTTP (SPEC 2.4): upstream's defaults on create, cluster IPs and node
// ports allocated from the flags' ranges (the fixtures' server ran with 10.96.0.0/16),
// its 422 bodies for bad writes (fixtures/surface/invalid/svc-*), release on delete and
// type change, and the Table.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { request, startReplicas, testEtcdClient, type Cluster, type HttpResponse } from '../harness/index.js';

const surface = resolve(process.cwd(), '../shared/fixtures/surface');
const readJSON = (p: string): any => JSON.parse(readFileSync(resolve(surface, p), 'utf8'));

/** The values allocation picks differ on every run. */
function withoutAllocated(spec: any): any {
  const out = structuredClone(spec);
  if (out.clusterIP && out.clusterIP !== 'None') { delete out.clusterIP; delete out.clusterIPs; }
  for (const p of out.ports ?? []) delete p.nodePort;
  return out;
}

describe('services over HTTP', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  let etcd: Etcd3;
  const ns = 'svc-' + Date.now().toString(36);
  const svcs = `/api/v1/namespaces/${ns}/services`;
  const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const patch = (name: string, body: unknown) => call('PATCH', `${svcs}/${name}`, body, { 'Content-Type': 'application/merge-patch+json' });
  /** What the allocation keys in etcd hold (labels under ranges/serviceips or servicenodeports). */
  const claimed = async (which: 'serviceips' | 'servicenodeports'): Promise<string[]> => {
    const p = `${cluster.etcdPrefix}/ranges/${which}/`;
    return (await etcd.getAll().prefix(p).keys()).map((k) => k.slice(p.length));
  };

  before(async () => {
    etcd = await testEtcdClient();
    cluster = await startReplicas(1, { extraArgs: ['--service-cluster-ip-range=10.96.0.0/16'] });
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); etcd?.close(); });

  it('creates the fixture services with upstream defaults and allocated values', async () => {
    for (const name of ['svc-ext', 'svc-headless', 'svc-np', 'svc-lb']) {
      const want = readJSON(`objects/v1.Service.${name}.response.json`);
      const res = await call('POST', svcs, readJSON(`objects/v1.Service.${name}.request.json`));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(withoutAllocated(res.body.spec)).to.deep.equal(withoutAllocated(want.spec));
      expect(res.body.status).to.deep.equal(want.status);
      if (want.spec.clusterIP && want.spec.clusterIP !== 'None') {
        expect(res.body.spec.clusterIP).to.match(/^10\.96\.\d+\.\d+$/);
        expect(res.body.spec.clusterIPs).to.deep.equal([res.body.spec.clusterIP]);
        expect(await claimed('serviceips')).to.include(res.body.spec.clusterIP);
      }
      for (const p of res.body.spec.ports ?? []) {
        if (res.body.spec.type === 'NodePort' || res.body.spec.type === 'LoadBalancer') {
          expect(p.nodePort).to.be.within(30000, 32767);
          expect(await claimed('servicenodeports')).to.include(String(p.nodePort));
        } else {
          expect(p.nodePort).to.equal(undefined);
        }
      }
    }
    expect((await call('GET', `${svcs}/svc-ext`)).body.spec.clusterIP).to.equal(undefined);
  });

  for (const c of ['svc-bad-port', 'svc-dup-port-names', 'svc-no-ports', 'svc-clusterip-out-of-range', 'svc-nodeport-out-of-range']) {
    it(`answers ${c} as upstream`, async () => {
      const f = readJSON(`invalid/${c}.json`);
      const before = [...await claimed('serviceips'), ...await claimed('servicenodeports')].sort();
      const res = await call('POST', svcs, f.request.body);
      expect(res.status).to.equal(f.status);
      expect(res.body).to.deep.equal(f.response);
      // A refused create keeps nothing it may have claimed.
      expect([...await claimed('serviceips'), ...await claimed('servicenodeports')].sort()).to.deep.equal(before);
    });
  }

  it('refuses a changed clusterIP as upstream', async () => {
    const f = readJSON('invalid/svc-clusterip-immutable.json');
    const body = { metadata: { name: 'svc' }, spec: { clusterIP: '10.96.5.5', ports: [{ port: 80 }], selector: { app: 'web' } } };
    expect((await call('POST', svcs, body)).status).to.equal(201);
    const res = await call('PATCH', `${svcs}/svc`, f.request.body, { 'Content-Type': f.request.contentType });
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.equal(f.response);
  });

  it('refuses requested values another service holds', async () => {
    const ip = await call('POST', svcs, { metadata: { name: 'taken-ip' }, spec: { clusterIP: '10.96.5.5', ports: [{ port: 80 }] } });
    expect(ip.status).to.equal(422);
    expect(ip.body.message).to.equal('Service "taken-ip" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.5.5"}: failed to allocate IP 10.96.5.5: provided IP is already allocated');
    const np = (await call('GET', `${svcs}/svc-np`)).body.spec.ports[0].nodePort;
    const port = await call('POST', svcs, { metadata: { name: 'taken-port' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: np }] } });
    expect(port.status).to.equal(422);
    expect(port.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', field: 'spec.ports[0].nodePort', message: `Invalid value: ${np}: provided port is already allocated` }]);
  });

  it('keeps allocations on updates that leave them out, and on no-op updates', async () => {
    const cur = (await call('GET', `${svcs}/svc-np`)).body;
    const put = structuredClone(cur);
    delete put.spec.clusterIP;
    delete put.spec.clusterIPs;
    delete put.spec.ports[0].nodePort;
    put.metadata.labels = { touched: 'yes' };
    const res = await call('PUT', `${svcs}/svc-np`, put);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.spec.clusterIP).to.equal(cur.spec.clusterIP);
    expect(res.body.spec.ports[0].nodePort).to.equal(cur.spec.ports[0].nodePort);
    expect(await claimed('servicenodeports')).to.include(String(cur.spec.ports[0].nodePort));
  });

  it('gives back node ports on NodePort -> ClusterIP and IPs on ClusterIP -> ExternalName; allocates again on the way back', async () => {
    const np = (await call('GET', `${svcs}/svc-np`)).body;
    const port = String(np.spec.ports[0].nodePort);
    let res = await patch('svc-np', { spec: { type: 'ClusterIP' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.spec.ports[0].nodePort).to.equal(undefined);
    expect(res.body.spec.externalTrafficPolicy).to.equal(undefined);
    expect(res.body.spec.clusterIP).to.equal(np.spec.clusterIP);
    expect(await claimed('servicenodeports')).to.not.include(port);
    res = await patch('svc-np', { spec: { type: 'ExternalName', externalName: 'example.com' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.spec).to.not.have.any.keys('clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy');
    expect(await claimed('serviceips')).to.not.include(np.spec.clusterIP);
    res = await patch('svc-np', { spec: { type: 'NodePort', externalName: null } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.spec.clusterIP).to.match(/^10\.96\./);
    expect(res.body.spec.ports[0].nodePort).to.be.within(30000, 32767);
    expect(await claimed('serviceips')).to.include(res.body.spec.clusterIP);
    expect(await claimed('servicenodeports')).to.include(String(res.body.spec.ports[0].nodePort));
  });

  it('a dry-run create shows values but claims nothing', async () => {
    const before = [...await claimed('serviceips'), ...await claimed('servicenodeports')].sort();
    const res = await call('POST', `${svcs}?dryRun=All`, { metadata: { name: 'dry' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    expect(res.status).to.equal(201);
    expect(res.body.spec.clusterIP).to.match(/^10\.96\./);
    expect(res.body.spec.ports[0].nodePort).to.be.within(30000, 32767);
    expect([...await claimed('serviceips'), ...await claimed('servicenodeports')].sort()).to.deep.equal(before);
  });

  it('prints the Table columns', async () => {
    const res = await call('GET', svcs, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(res.status).to.equal(200);
    const names = res.body.rows.map((r: any) => r.cells.slice(0, 5));
    expect(names).to.deep.include.members([
      ['svc', 'ClusterIP', '10.96.5.5', '<none>', '80/TCP'],
      ['svc-ext', 'ExternalName', '<none>', 'example.com', '<none>'],
      ['svc-headless', 'ClusterIP', 'None', '<none>', '80/TCP'],
    ]);
  });

  it('the elected replica repairs at start: a lost allocation key is claimed again', async () => {
    const svc = (await call('GET', `${svcs}/svc-lb`)).body;
    const ip = svc.spec.clusterIP;
    const port = String(svc.spec.ports[0].nodePort);
    await etcd.delete().key(`${cluster.etcdPrefix}/ranges/serviceips/${ip}`);
    await etcd.delete().key(`${cluster.etcdPrefix}/ranges/servicenodeports/${port}`);
    await cluster.stopReplica(0);
    await cluster.startReplica(0);
    const deadline = Date.now() + 30_000;
    while (!((await claimed('serviceips')).includes(ip) && (await claimed('servicenodeports')).includes(port))) {
      expect(Date.now(), 'repair did not claim the lost allocations').to.be.below(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('gives everything back on delete', async () => {
    const list = (await call('GET', svcs)).body.items;
    for (const s of list) expect((await call('DELETE', `${svcs}/${s.metadata.name}`)).status).to.equal(200);
    const held = (await call('GET', '/api/v1/services')).body.items;
    const ips = held.flatMap((s: any) => (s.spec.clusterIPs ?? []).filter((ip: string) => ip !== 'None'));
    const ports = held.flatMap((s: any) => (s.spec.ports ?? []).map((p: any) => p.nodePort).filter(Boolean).map(String));
    expect((await claimed('serviceips')).sort()).to.deep.equal(ips.sort());
    expect((await claimed('servicenodeports')).sort()).to.deep.equal(ports.sort());
    // The freed requested IP can be taken again.
    expect((await call('POST', svcs, { metadata: { name: 'again' }, spec: { clusterIP: '10.96.5.5', ports: [{ port: 80 }] } })).status).to.equal(201);
  });
});
