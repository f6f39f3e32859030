// Services through HTTP (SPEC 2.4): upstream's defaults on create, its 422 bodies for bad
// writes (fixtures/surface/invalid/svc-*)
// and the Table. ClusterIP/NodePort allocation is not served yet,
// so the allocation fixtures (out-of-range) are not exercised here.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

const surface = resolve(process.cwd(), '../shared/fixtures/surface');
const readJSON = (p: string): any => JSON.parse(readFileSync(resolve(surface, p), 'utf8'));

describe('services over HTTP', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  const ns = 'svc-' + Date.now().toString(36);
  const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('creates the fixture services with upstream defaults', async () => {
    for (const name of ['svc-ext', 'svc-headless']) {
      const want = readJSON(`objects/v1.Service.${name}.response.json`);
      const res = await call('POST', `/api/v1/namespaces/${ns}/services`, readJSON(`objects/v1.Service.${name}.request.json`));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.spec).to.deep.equal(want.spec);
      expect(res.body.status).to.deep.equal(want.status);
    }
  });

  for (const c of ['svc-bad-port', 'svc-dup-port-names', 'svc-no-ports']) {
    it(`answers ${c} as upstream`, async () => {
      const f = readJSON(`invalid/${c}.json`);
      const res = await call('POST', `/api/v1/namespaces/${ns}/services`, f.request.body);
      expect(res.status).to.equal(f.status);
      expect(res.body).to.deep.equal(f.response);
    });
  }

  it('refuses a changed clusterIP as upstream', async () => {
    const f = readJSON('invalid/svc-clusterip-immutable.json');
    const body = { metadata: { name: 'svc' }, spec: { clusterIP: '10.96.5.5', ports: [{ port: 80 }], selector: { app: 'web' } } };
    expect((await call('POST', `/api/v1/namespaces/${ns}/services`, body)).status).to.equal(201);
    const res = await call('PATCH', `/api/v1/namespaces/${ns}/services/svc`, f.request.body, { 'Content-Type': f.request.contentType });
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.equal(f.response);
  });

  it('prints the Table columns', async () => {
    const res = await call('GET', `/api/v1/namespaces/${ns}/services`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(res.status).to.equal(200);
    const names = res.body.rows.map((r: any) => r.cells.slice(0, 5));
    expect(names).to.deep.include.members([
      ['svc', 'ClusterIP', '10.96.5.5', '<none>', '80/TCP'],
      ['svc-ext', 'ExternalName', '<none>', 'example.com', '<none>'],
      ['svc-headless', 'ClusterIP', 'None', '<none>', '80/TCP'],
    ]);
  });
});
