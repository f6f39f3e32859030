// Endpoints and EndpointSlices over HTTP, and the `kubernetes` Service with the lease
// endpoint reconciler: every replica publishes its --advertise-address under a lease in
// etcd; the Endpoints and EndpointSlice `kubernetes` list exactly the live replicas.
import { expect } from 'chai';
import { request, startReplicas, testEtcdClient, type Cluster, type HttpResponse } from '../harness/index.js';
import { objectFixture, stripVolatile, tableFixture } from '../harness/surface-fixtures.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

type Obj = Record<string, any>;
const epPath = '/api/v1/namespaces/default/endpoints/kubernetes';
const slicePath = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last !== undefined) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const ipsOf = (ep: Obj): string[] => (ep.subsets?.[0]?.addresses ?? []).map((a: Obj) => a.ip);
const sliceIPs = (s: Obj): string[] => (s.endpoints ?? []).flatMap((e: Obj) => e.addresses);

describe('endpoints and endpointslices over HTTP', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const call = <T = Obj>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  before(async () => {
    cluster = await startReplicas(2, { extraArgs: (i) => [`--advertise-address=192.0.2.${11 + i}`] });
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: 'fixtures' } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  const fixtures: [string, string][] = [
    ['v1.Endpoints.ep', '/api/v1/namespaces/fixtures/endpoints'],
    ['discovery.k8s.io_v1.EndpointSlice.eps', '/apis/discovery.k8s.io/v1/namespaces/fixtures/endpointslices'],
  ];
  for (const [name, collection] of fixtures) {
    it(`${name}: created, read, listed as a Table and deleted as upstream answered`, async () => {
      const f = objectFixture(name);
      const res = await call<KubeObject>('POST', collection, f.request);
      expect(res.status).to.equal(201);
      expect(stripVolatile(res.body)).to.deep.equal(stripVolatile(f.response));
      expect(res.body.metadata.managedFields?.map((m) => m.fieldsV1)).to.deep.equal(f.response.metadata.managedFields?.map((m) => m.fieldsV1));
      const got = await call<KubeObject>('GET', `${collection}/${f.request.metadata.name}`, undefined, {}, 1);
      expect(stripVolatile(got.body)).to.deep.equal(stripVolatile(f.response));
      const table = await call<Obj>('GET', collection, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
      const want = tableFixture(name.split('.').slice(0, -1).join('.'));
      expect(table.body.columnDefinitions.map((c: Obj) => [c.name, c.type, c.format, c.priority]))
        .to.deep.equal(want.columnDefinitions.map((c) => [c.name, c.type, c.format, c.priority]));
      expect(table.body.rows.map((r: Obj) => r.cells.slice(0, -1))).to.deep.equal(want.rows.map((r) => r.slice(0, -1)));
      expect((await call('DELETE', `${collection}/${f.request.metadata.name}`)).status).to.equal(200);
      expect((await call('GET', `${collection}/${f.request.metadata.name}`)).status).to.equal(404);
    });
  }

  it('refuses a loopback address with upstream\'s 422', async () => {
    const res = await call<Obj>('POST', '/api/v1/namespaces/fixtures/endpoints', {
      metadata: { name: 'lo' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 80 }] }],
    });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('Endpoints "lo" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)');
    expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', field: 'subsets[0].addresses[0].ip',
      message: 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)' }]);
  });

  it('endpointslices: label and field selectors', async () => {
    const mk = (name: string, svc: string) => call('POST', '/apis/discovery.k8s.io/v1/namespaces/fixtures/endpointslices', {
      metadata: { name, labels: { 'kubernetes.io/service-name': svc } }, addressType: 'IPv4', endpoints: [{ addresses: ['10.1.0.1'] }],
    });
    expect((await mk('a-1', 'a')).status).to.equal(201);
    expect((await mk('b-1', 'b')).status).to.equal(201);
    const byLabel = await call<Obj>('GET', '/apis/discovery.k8s.io/v1/namespaces/fixtures/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Db');
    expect(byLabel.body.items.map((i: Obj) => i.metadata.name)).to.deep.equal(['b-1']);
    const byField = await call<Obj>('GET', '/apis/discovery.k8s.io/v1/endpointslices?fieldSelector=metadata.name%3Da-1');
    expect(byField.body.items.map((i: Obj) => i.metadata.name)).to.deep.equal(['a-1']);
  });

  it('the kubernetes Service exists with the first IP of the range and https 443 -> the secure port', async () => {
    const res = await call<Obj>('GET', '/api/v1/namespaces/default/services/kubernetes');
    expect(res.status).to.equal(200);
    const svc = res.body;
    expect(svc.metadata.labels).to.deep.equal({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.spec).to.deep.include({ type: 'ClusterIP', clusterIP: '10.0.0.1', sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack' });
    expect(svc.spec.ports).to.have.length(1);
    expect(svc.spec.ports[0]).to.deep.include({ name: 'https', port: 443, protocol: 'TCP' });
    expect(cluster.replicas.map((r) => r.port)).to.include(svc.spec.ports[0].targetPort);
  });

  it('both replicas\' advertise addresses are in the Endpoints and the EndpointSlice', async () => {
    const ep = await until('both addresses', 30_000, async () => {
      const r = await call<Obj>('GET', epPath);
      return r.status === 200 && ipsOf(r.body).length === 2 ? r.body : undefined;
    });
    expect(ipsOf(ep)).to.deep.equal(['192.0.2.11', '192.0.2.12']);
    expect(ep.metadata.labels).to.deep.equal({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(ep.subsets[0].ports).to.have.length(1);
    expect(ep.subsets[0].ports[0]).to.deep.include({ name: 'https', protocol: 'TCP' });
    expect(cluster.replicas.map((r) => r.port)).to.include(ep.subsets[0].ports[0].port);
    const slice = await until('the slice', 10_000, async () => {
      const r = await call<Obj>('GET', slicePath);
      return r.status === 200 && sliceIPs(r.body).length === 2 ? r.body : undefined;
    });
    expect(slice.metadata.labels).to.deep.equal({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(slice.addressType).to.equal('IPv4');
    expect(slice.endpoints).to.deep.equal([
      { addresses: ['192.0.2.11'], conditions: { ready: true } },
      { addresses: ['192.0.2.12'], conditions: { ready: true } },
    ]);
    // Each replica writes its own secure port, as upstream's reconciler does; the replicas here listen on two
    // loopback ports (a real control plane shares one), so the port may have flipped since the Endpoints read.
    expect(slice.ports).to.have.length(1);
    expect(slice.ports[0]).to.deep.include({ name: 'https', protocol: 'TCP' });
    expect(cluster.replicas.map((r) => r.port)).to.include(slice.ports[0].port);
    const etcd = await testEtcdClient();
    try {
      const keys = await etcd.getAll().prefix(`${cluster.etcdPrefix}/masterleases/`).keys();
      expect(keys.sort()).to.deep.equal([`${cluster.etcdPrefix}/masterleases/192.0.2.11`, `${cluster.etcdPrefix}/masterleases/192.0.2.12`]);
      expect(await etcd.get(`${cluster.etcdPrefix}/services/endpoints/default/kubernetes`).exists()).to.equal(true);
      expect(await etcd.get(`${cluster.etcdPrefix}/endpointslices/default/kubernetes`).exists()).to.equal(true);
    } finally {
      etcd.close();
    }
  });
});

describe('the lease endpoint reconciler', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const get = (path: string) => request<Obj>(`${cluster.urls[0]}${path}`, cluster.credentialsFor());
  const waitFor = (ips: string[], timeoutMs: number) => until(`endpoints ${ips.join(',')}`, timeoutMs, async () => {
    const [ep, slice] = await Promise.all([get(epPath), get(slicePath)]);
    return ep.status === 200 && JSON.stringify(ipsOf(ep.body)) === JSON.stringify(ips)
      && JSON.stringify(sliceIPs(slice.body)) === JSON.stringify(ips) ? true : undefined;
  });

  // A 10 s lease renewed every second: only etcd's expiry removes a killed replica, and a
  // clean stop is visibly faster than that.
  before(async () => {
    cluster = await startReplicas(2, { readyTimeoutMs: 120_000, extraArgs: (i) => [`--advertise-address=192.0.2.${11 + i}`,
      '--endpoint-reconciler-lease-ttl=10s', '--endpoint-reconciler-interval=1s'] });
    await waitFor(['192.0.2.11', '192.0.2.12'], 30_000);
  });
  after(async () => { await cluster?.stop(); });

  it('a replica killed with SIGKILL drops out once its lease expires', async () => {
    const started = Date.now();
    process.kill(cluster.replicas[1]!.pid!, 'SIGKILL');
    await waitFor(['192.0.2.11'], 30_000);
    // Nobody removed the lease but etcd: not before most of its TTL had passed.
    expect(Date.now() - started).to.be.greaterThan(7000);
  });

  it('a restarted replica comes back', async () => {
    await cluster.stopReplica(1);
    await cluster.startReplica(1);
    await waitFor(['192.0.2.11', '192.0.2.12'], 30_000);
  });

  it('a replica stopped gracefully removes itself at once, well before its lease would expire', async () => {
    const started = Date.now();
    await cluster.stopReplica(1);
    await waitFor(['192.0.2.11'], 2000);
    expect(Date.now() - started).to.be.lessThan(7000);
    const etcd = await testEtcdClient();
    try {
      expect(await etcd.getAll().prefix(`${cluster.etcdPrefix}/masterleases/`).keys()).to.deep.equal([`${cluster.etcdPrefix}/masterleases/192.0.2.11`]);
    } finally {
      etcd.close();
    }
  });

  it('the last replica stopped gracefully empties the Endpoints and the EndpointSlice, as upstream', async () => {
    await cluster.stopReplica(0);
    const etcd = await testEtcdClient();
    try {
      expect(await etcd.getAll().prefix(`${cluster.etcdPrefix}/masterleases/`).keys()).to.deep.equal([]);
      // Both objects stay (the Service still exists), stored as protobuf with no address left in them.
      for (const key of ['services/endpoints/default/kubernetes', 'endpointslices/default/kubernetes']) {
        const stored = await etcd.get(`${cluster.etcdPrefix}/${key}`).buffer();
        expect(stored?.subarray(0, 4).toString('latin1'), key).to.equal('k8s\0');
        expect(stored!.includes('192.0.2.'), key).to.equal(false);
      }
    } finally {
      etcd.close();
    }
  });
});

describe('a loopback advertise address', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  before(async () => { cluster = await startReplicas(1, { extraArgs: ['--advertise-address=127.0.0.1'] }); });
  after(async () => { await cluster?.stop(); });

  it('is refused by Endpoints validation, as upstream: no kubernetes endpoints are written', async () => {
    const get = (path: string) => request<Obj>(`${cluster.urls[0]}${path}`, cluster.credentialsFor());
    expect((await get('/api/v1/namespaces/default/services/kubernetes')).status).to.equal(200);
    expect((await get(epPath)).status).to.equal(404);
    expect((await get(slicePath)).status).to.equal(404);
  });
});
