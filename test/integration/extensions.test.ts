// admissionregistration (and the other extension groups) over HTTP against two replicas:
// upstream's fixture bodies answer as upstream did, 422s carry upstream's text.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../harness/surface-objects.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } }
interface Table { columnDefinitions: { name: string; type: string; format: string; priority: number }[]; rows: { cells: unknown[]; object: { metadata: { name: string } } }[] }

const availableReason = (o: KubeObject): unknown =>
  ((o.status as { conditions?: Array<{ type: string; reason?: string }> } | undefined)?.conditions ?? []).find((c) => c.type === 'Available')?.reason;

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('extension groups over HTTP', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const call = <T>(replica: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  before(async () => { cluster = await startReplicas(2); });
  after(async () => { await cluster?.stop(); });

  const gv = 'admissionregistration.k8s.io_v1';
  const base = '/apis/admissionregistration.k8s.io/v1';
  for (const [kind, plural, name] of [
    ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', 'fixtures-mwc'],
    ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', 'fixtures-vwc'],
  ] as const) {
    it(`${kind}: the fixture body is answered as upstream did, seen by both replicas, printed as upstream`, async () => {
      const res = await call<KubeObject>(0, 'POST', `${base}/${plural}?fieldManager=unknown`, fixtureObject(gv, kind, name, 'request'));
      expect(res.status, res.text).to.equal(201);
      const want = fixtureObject(gv, kind, name, 'response');
      const strip = (o: KubeObject) => {
        const s = withoutRunValues(o);
        s.metadata.managedFields = (o.metadata.managedFields ?? []).map(({ time: _t, ...rest }) => rest) as typeof o.metadata.managedFields;
        return s;
      };
      expect(strip(res.body)).to.deep.equal(strip(want));
      const got = await call<KubeObject>(1, 'GET', `${base}/${plural}/${name}`);
      expect(got.body.metadata.resourceVersion).to.equal(res.body.metadata.resourceVersion);
      const table = await call<Table>(1, 'GET', `${base}/${plural}`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
      const upstream = fixtureTable(gv, kind);
      expect(table.body.columnDefinitions.map(({ name: n, type, format, priority }) => ({ name: n, type, format, priority })))
        .to.deep.equal(upstream.columnDefinitions);
      const row = table.body.rows.find((r) => r.cells[0] === name)!;
      expect(row.cells.slice(0, 2)).to.deep.equal(upstream.rows[0].slice(0, 2));
    });
  }

  it('refuses a webhook without sideEffects or with an http url, with upstream\'s 422', async () => {
    const res = await call<Status>(0, 'POST', `${base}/validatingwebhookconfigurations`, {
      metadata: { name: 'bad-vwc' },
      webhooks: [{ name: 'v.example.com', admissionReviewVersions: ['v1'], clientConfig: { url: 'http://h/x' } }],
    });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.equal('ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad-vwc" is invalid: ['
      + 'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, '
      + 'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]]');
    expect(res.body.details?.causes?.map((c) => [c.reason, c.field])).to.deep.equal([
      ['FieldValueRequired', 'webhooks[0].sideEffects'], ['FieldValueInvalid', 'webhooks[0].clientConfig.url']]);
  });

  it('generation grows when webhooks change', async () => {
    const path = `${base}/mutatingwebhookconfigurations/fixtures-mwc`;
    const cur = await call<KubeObject>(0, 'GET', path);
    const body = structuredClone(cur.body);
    (body.webhooks as Record<string, unknown>[])[0].timeoutSeconds = 5;
    const res = await call<KubeObject>(1, 'PUT', path, body);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.metadata.generation).to.equal(2);
  });

  describe('certificatesigningrequests', () => {
    const csrBase = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
    const cgv = 'certificates.k8s.io_v1';

    it('creates the fixture CSR as upstream (identity from the caller), approves through /approval, selects by signerName', async () => {
      const body = fixtureObject(cgv, 'CertificateSigningRequest', 'fixtures-csr', 'request');
      (body.spec as Record<string, unknown>).username = 'someone-else';
      const res = await call<KubeObject>(0, 'POST', csrBase, body);
      expect(res.status, res.text).to.equal(201);
      const want = withoutRunValues(fixtureObject(cgv, 'CertificateSigningRequest', 'fixtures-csr', 'response'));
      const got = withoutRunValues(res.body);
      // The harness admin is upstream's capture identity (admin, system:masters): identity compares too.
      expect(got).to.deep.equal(want);
      expect((res.body.spec as Record<string, unknown>).username).to.not.equal('someone-else');

      const cur = await call<KubeObject>(1, 'GET', `${csrBase}/fixtures-csr`);
      const appr = structuredClone(cur.body);
      appr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' }] };
      const main = await call<Status>(1, 'PUT', `${csrBase}/fixtures-csr`, appr);
      expect(main.status).to.equal(200); // the main resource silently keeps the stored status
      const approved = await call<KubeObject>(1, 'PUT', `${csrBase}/fixtures-csr/approval`, { ...appr, metadata: { ...appr.metadata, resourceVersion: (main.body as unknown as KubeObject).metadata.resourceVersion } });
      expect(approved.status, approved.text).to.equal(200);
      const conds = (approved.body.status as { conditions: Record<string, unknown>[] }).conditions;
      expect(conds.map((c) => [c.type, c.status, c.reason])).to.deep.equal([['Approved', 'True', 'KubectlApprove']]);
      const table = await call<Table>(0, 'GET', `${csrBase}?fieldSelector=spec.signerName%3Dkubernetes.io%2Fkube-apiserver-client`,
        undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
      expect(table.status, table.text).to.equal(200);
      const row = table.body.rows.find((r) => r.cells[0] === 'fixtures-csr')!;
      expect([row.cells[2], row.cells[4], row.cells[5]]).to.deep.equal(['kubernetes.io/kube-apiserver-client', '60m', 'Approved']);
      const none = await call<{ items: unknown[] }>(0, 'GET', `${csrBase}?fieldSelector=spec.signerName%3Dexample.com%2Fnone`);
      expect(none.body.items).to.deep.equal([]);
    });

    it('refuses a request that is not PEM, with upstream\'s 422', async () => {
      const res = await call<Status>(0, 'POST', csrBase, { metadata: { name: 'bad-csr' },
        spec: { request: Buffer.from('no').toString('base64'), signerName: 'example.com/s', usages: ['client auth'] } });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal('CertificateSigningRequest.certificates.k8s.io "bad-csr" is invalid: '
        + 'spec.request: Invalid value: []byte{0x6e, 0x6f}: PEM block type must be CERTIFICATE REQUEST');
    });
  });

  it('apiservices: every served group version is registered as a Local, available APIService, except the aggregator\'s own', async () => {
    const table = await call<Table>(1, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices?labelSelector=kube-aggregator.kubernetes.io%2Fautomanaged%3Donstart',
      undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const rows = new Map(table.body.rows.map((r) => [r.cells[0], r.cells.slice(1, 3)]));
    for (const name of ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.autoscaling', 'v1.rbac.authorization.k8s.io', 'v1.storage.k8s.io']) {
      expect(rows.get(name), name).to.deep.equal(['Local', 'True']);
    }
    expect(rows.has('v1.apiregistration.k8s.io')).to.equal(false);
    const core = await call<KubeObject>(0, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.apps');
    expect(core.body.spec).to.deep.equal({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  });

  it('apiservices: the fixture body is answered as upstream did and its status is written only through /status', async () => {
    const agv = 'apiregistration.k8s.io_v1';
    const name = 'v1alpha1.fixtures.example.com';
    const path = '/apis/apiregistration.k8s.io/v1/apiservices';
    const res = await call<KubeObject>(0, 'POST', `${path}?fieldManager=unknown`, fixtureObject(agv, 'APIService', name, 'request'));
    expect(res.status, res.text).to.equal(201);
    const strip = (o: KubeObject) => {
      const st = withoutRunValues(o);
      st.metadata.managedFields = (o.metadata.managedFields ?? []).map(({ time: _t, ...rest }) => rest) as typeof o.metadata.managedFields;
      return st;
    };
    const got = strip(res.body);
    expect(got).to.deep.equal(strip(fixtureObject(agv, 'APIService', name, 'response')));
    // The availability controller judges it first: its service does not exist.
    const judged = await eventually(async () => {
      const r = await call<KubeObject>(1, 'GET', `${path}/${name}`);
      return availableReason(r.body) === 'ServiceNotFound' ? r.body : undefined;
    });
    const body = structuredClone(judged);
    body.status = { conditions: [{ type: 'Available', status: 'False', reason: 'ServicePortError', message: 'm', lastTransitionTime: '2026-11-23T20:28:59Z' }] };
    const main = await call<KubeObject>(1, 'PUT', `${path}/${name}`, body);
    expect(main.status, main.text).to.equal(200);
    expect(main.body.status).to.deep.equal(judged.status);
    body.metadata.resourceVersion = main.body.metadata.resourceVersion;
    const st = await call<KubeObject>(1, 'PUT', `${path}/${name}/status`, body);
    expect(st.status, st.text).to.equal(200);
    expect(availableReason(st.body)).to.equal('ServicePortError');
    // ...and puts its own verdict back.
    const row = await eventually(async () => {
      const table = await call<Table>(0, 'GET', path, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
      const r = table.body.rows.find((x) => x.cells[0] === name)!;
      return r.cells[2] === 'False (ServiceNotFound)' ? r : undefined;
    });
    expect(row.cells.slice(0, 3)).to.deep.equal([name, 'fixtures/svc', 'False (ServiceNotFound)']);
    const bad = await call<Status>(0, 'POST', path, { metadata: { name: 'v1.x' }, spec: { group: 'y.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1 } });
    expect(bad.status).to.equal(422);
    expect(bad.body.message).to.equal('APIService.apiregistration.k8s.io "v1.x" is invalid: metadata.name: Invalid value: "v1.x": must be `spec.version+"."+spec.group`: "v1.y.example.com"');
  });
});
