// core/v1 componentstatuses against real replicas: computed per read, etcd-0 healthy,
// the scheduler and controller manager unreachable as upstream reports them, the
// deprecation warning on every answer, get/list only, and the table.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { freePort, request, startReplicas, startTestEtcd, testEtcdEndpoint, type Cluster, type HttpResponse, type TestEtcd } from '../harness/index.js';
import type { KubeList, KubeObject } from '../../pkg/runtime/object.js';
import { probeEtcd, probeHTTPS } from '../../pkg/registry/core/componentstatuses/probes.js';

type Obj = Record<string, unknown>;
const warning = '299 - "v1 ComponentStatus is deprecated in v1.19+"';

describe('componentstatuses over HTTP', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const call = <T = Obj>(method: string, path: string, headers: Record<string, string> = {}, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, headers });

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  it('lists etcd-0 healthy and the unreachable scheduler and controller manager, with the warning', async () => {
    const res = await call<KubeList>('GET', '/api/v1/componentstatuses');
    expect(res.status).to.equal(200);
    expect(res.headers.warning).to.equal(warning);
    expect(res.body).to.include({ kind: 'ComponentStatusList', apiVersion: 'v1' });
    const byName = new Map(res.body.items.map((i) => [i.metadata.name, i]));
    expect([...byName.keys()].sort()).to.deep.equal(['controller-manager', 'etcd-0', 'scheduler']);
    expect(byName.get('etcd-0')!.conditions).to.deep.equal([{ type: 'Healthy', status: 'True', message: 'ok' }]);
    expect(byName.get('scheduler')!.conditions).to.deep.equal([{ type: 'Healthy', status: 'False',
      message: 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused' }]);
    expect(byName.get('controller-manager')!.conditions).to.deep.equal([{ type: 'Healthy', status: 'False',
      message: 'Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused' }]);
  });

  it('gets one component; an unknown name is upstream\'s plain 500 (no reason)', async () => {
    const one = await call<KubeObject>('GET', '/api/v1/componentstatuses/etcd-0');
    expect(one.status).to.equal(200);
    expect(one.headers.warning).to.equal(warning);
    expect(one.body).to.deep.equal({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null },
      conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = await call<Obj>('GET', '/api/v1/componentstatuses/nope');
    expect(missing.status).to.equal(500);
    expect(missing.text).to.equal('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Component not found: nope","code":500}\n');
  });

  it('filters by field selector and refuses writes and watches', async () => {
    const only = await call<KubeList>('GET', '/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0');
    expect(only.body.items.map((i) => i.metadata.name)).to.deep.equal(['etcd-0']);
    for (const [method, path] of [['DELETE', '/api/v1/componentstatuses/etcd-0'], ['POST', '/api/v1/componentstatuses'], ['GET', '/api/v1/componentstatuses?watch=true']]) {
      expect((await call(method!, path!)).status, `${method} ${path}`).to.equal(405);
    }
    const disc = (await call<{ resources: Obj[] }>('GET', '/api/v1')).body.resources.find((r) => r.name === 'componentstatuses');
    expect(disc).to.deep.equal({ name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus',
      verbs: ['get', 'list'], shortNames: ['cs'] });
  });

  it('prints NAME STATUS MESSAGE ERROR', async () => {
    const t = (await call<{ columnDefinitions: Obj[]; rows: Array<{ cells: unknown[] }> }>('GET', '/api/v1/componentstatuses',
      { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
    expect(t.columnDefinitions.map((c) => c.name)).to.deep.equal(['Name', 'Status', 'Message', 'Error']);
    expect(t.rows.find((r) => r.cells[0] === 'etcd-0')!.cells).to.deep.equal(['etcd-0', 'Healthy', 'ok', '']);
    expect(t.rows.find((r) => r.cells[0] === 'scheduler')!.cells[1]).to.equal('Unhealthy');
  });

  it('probes report success bodies and failures as upstream words them', async () => {
    // A component with a self-signed certificate: the probe does not verify it, as upstream's.
    const { certFile, keyFile } = cluster.pki.serving;
    const component = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      res.writeHead(req.url === '/healthz' ? 200 : 500).end(req.url === '/healthz' ? 'ok' : 'broken');
    });
    await new Promise<void>((r) => component.listen(0, '127.0.0.1', r));
    const port = (component.address() as { port: number }).port;
    try {
      expect(await probeHTTPS('127.0.0.1', port, '/healthz')).to.deep.equal({ status: 'True', message: 'ok', error: '' });
      expect(await probeHTTPS('127.0.0.1', port, '/other')).to.deep.equal({ status: 'False', message: 'HTTP probe failed with statuscode: 500', error: '' });
    } finally { component.close(); }
    const dead = await freePort();
    expect(await probeEtcd([`http://127.0.0.1:${dead}`], '/registry', 1000)).to.deep.include({ status: 'False', message: '' })
      .and.satisfy((r: { error: string }) => r.error.startsWith('error getting data from etcd: '));
  });
});

// v1.28 names one etcd-<i> per storage configuration (its storage factory's Configs(),
// since PR 118460): --etcd-servers as a whole is etcd-0, however many URLs it lists, then
// one per --etcd-servers-overrides resource, each probed with a client of its own servers.
describe('componentstatuses with several etcd URLs and overrides', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let second: TestEtcd;
  const list = async () => {
    const res = await request<KubeList>(`${cluster.urls[0]}/api/v1/componentstatuses`, cluster.credentialsFor());
    expect(res.status).to.equal(200);
    return new Map(res.body.items.map((i) => [i.metadata.name, (i as Obj).conditions as Array<Record<string, string>>]));
  };

  before(async () => {
    second = await startTestEtcd();
    const main = await testEtcdEndpoint();
    const deadMember = `http://127.0.0.1:${await freePort()}`;
    cluster = await startReplicas(1, { extraArgs: [
      `--etcd-servers=${main},${deadMember}`,
      `--etcd-servers-overrides=/events#${second.endpoint},coordination.k8s.io/leases#${deadMember};${second.endpoint},/events#${second.endpoint}`,
    ] });
  });
  after(async () => {
    await cluster?.stop();
    await second?.stop();
  });

  it('etcd-0 for --etcd-servers (one URL of two down), one entry per overridden resource', async () => {
    const byName = await list();
    expect([...byName.keys()].sort()).to.deep.equal(['controller-manager', 'etcd-0', 'etcd-1', 'etcd-2', 'scheduler']);
    for (const name of ['etcd-0', 'etcd-1', 'etcd-2']) expect(byName.get(name), name).to.deep.equal([{ type: 'Healthy', status: 'True', message: 'ok' }]);
    const one = await request<KubeObject>(`${cluster.urls[0]}/api/v1/componentstatuses/etcd-2`, cluster.credentialsFor());
    expect(one.status).to.equal(200);
  });

  it('an override\'s etcd down: its entries unhealthy with the client\'s error, etcd-0 healthy', async () => {
    await second.stop();
    const byName = await list();
    expect(byName.get('etcd-0')).to.deep.equal([{ type: 'Healthy', status: 'True', message: 'ok' }]);
    for (const name of ['etcd-1', 'etcd-2']) {
      const [c] = byName.get(name)!;
      expect(c, name).to.include({ type: 'Healthy', status: 'False' });
      expect(c!.message, name).to.equal(undefined);
      expect(c!.error, name).to.match(/^error getting data from etcd: /);
    }
  });
});
