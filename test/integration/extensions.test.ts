// admissionregistration (and the other extension groups) over HTTP against two replicas:
// upstream's fixture bodies answer as upstream did, 422s carry upstream's text.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../harness/surface-fixtures.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } }
interface Table { columnDefinitions: { name: string; type: string; format: string; priority: number }[]; rows: { cells: unknown[]; object: { metadata: { name: string } } }[] }

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
});
