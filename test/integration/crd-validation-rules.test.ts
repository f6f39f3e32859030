// x-kubernetes-validations over HTTP: a CRD whose rule does not compile, or uses oldSelf
// where values do not correlate, is refused with upstream's 422 on create and on
// update; a CRD with valid rules is accepted.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } }

const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(plural: string, rules: Array<Record<string, unknown>>): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.rules.example.com` },
    spec: {
      group: 'rules.example.com', scope: 'Namespaced', names: { plural, kind: 'Ruled' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
        type: 'object', properties: { replicas: { type: 'integer' }, ports: { type: 'array', maxItems: 8, items: { type: 'integer' } } },
        'x-kubernetes-validations': rules,
      } } } } }],
    },
  };
}

describe('CRD x-kubernetes-validations over HTTP', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const call = <T>(method: string, path: string, body?: unknown): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  it('refuses a rule that does not compile with upstream\'s 422', async () => {
    const res = await call<Status>('POST', base, crd('broken', [{ rule: 'self.replica > 1' }]));
    expect(res.status).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
    const field = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
    expect(res.body.message).to.equal(`CustomResourceDefinition.apiextensions.k8s.io "broken.rules.example.com" is invalid: ${field}: Invalid value: `
      + 'apiextensions.ValidationRule{Rule:"self.replica > 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: '
      + 'compilation failed: ERROR: <input>:1:5: undefined field \'replica\'\n | self.replica > 1\n | ....^');
    expect(res.body.details?.causes?.map((c) => [c.reason, c.field])).to.deep.equal([['FieldValueInvalid', field]]);
  });

  it('accepts valid rules, and refuses an update that adds an uncorrelatable transition rule', async () => {
    const created = await call<KubeObject>('POST', base, crd('fine', [{ rule: 'self.replicas >= 0', message: 'replicas must not be negative' }]));
    expect(created.status, created.text).to.equal(201);
    type Spec = { versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: { ports: Record<string, unknown> } } } } } }> };
    // The status controllers write the CRD meanwhile: read, change, retry on conflict.
    let res: HttpResponse<Status>;
    for (let attempt = 0; ; attempt++) {
      const cur = await call<KubeObject & { spec: Spec }>('GET', `${base}/fine.rules.example.com`);
      cur.body.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.ports.items = { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] };
      res = await call<Status>('PUT', `${base}/fine.rules.example.com`, cur.body);
      if (res.status !== 409 || attempt > 20) break;
    }
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('CustomResourceDefinition.apiextensions.k8s.io "fine.rules.example.com" is invalid: '
      + 'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": '
      + 'oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[ports]');
  });
});
