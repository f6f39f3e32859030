// A strategic merge patch that gives a field a value of the wrong type: upstream's
// patcher converts the patched map into the kind (runtime.DefaultUnstructuredConverter)
// rather than decoding JSON, and a value that does not convert is a 422 Invalid on
// "patch" showing the patch as Go prints a map (%+v), with the converter's own words.
// An integer too wide for an int32 field converts (Go keeps the low 32 bits).
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ field: string; reason: string }> } }

describe('strategic merge patch type errors', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `smpt-${Date.now().toString(36)}`;
  const deployment = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
  const configMap = `/api/v1/namespaces/${ns}/configmaps/cm`;
  const call = <T>(method: string, path: string, body: string, contentType = 'application/json'): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers: { 'Content-Type': contentType } });
  const smp = (path: string, patch: string) => call<Status>('PATCH', path, patch, 'application/strategic-merge-patch+json');

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }))).status).to.equal(201);
    expect((await call('POST', `/api/v1/namespaces/${ns}/configmaps`, '{"metadata":{"name":"cm"},"data":{"k":"v"}}')).status).to.equal(201);
    const web = '{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"w"}},"template":{"metadata":{"labels":{"app":"w"}},'
      + '"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}';
    expect((await call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, web)).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('422 on "patch" with the converter\'s message, per kind of mismatch', async () => {
    const cases: Array<[string, string, string, string]> = [
      [deployment, '{"spec":{"replicas":"3"}}', 'map[spec:map[replicas:3]]', 'unrecognized type: int32'],
      [deployment, '{"spec":{"replicas":2.5}}', 'map[spec:map[replicas:2.5]]', 'cannot convert float64 to int32'],
      [deployment, '{"spec":{"template":[]}}', 'map[spec:map[template:[]]]', 'cannot restore struct from: slice'],
      [deployment, '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":true}}}}', 'map[spec:map[strategy:map[rollingUpdate:map[maxSurge:true]]]]',
        'json: cannot unmarshal bool into Go value of type int32'],
      [configMap, '{"data":{"k":5}}', 'map[data:map[k:5]]', 'cannot convert int64 to string'],
      [configMap, '{"data":{"k":true}}', 'map[data:map[k:true]]', 'unrecognized type: string'],
      [configMap, '{"metadata":{"labels":["a"]}}', 'map[metadata:map[labels:[a]]]', 'cannot restore map from slice'],
      [configMap, '{"metadata":{"creationTimestamp":5}}', 'map[metadata:map[creationTimestamp:5]]', 'json: cannot unmarshal number into Go value of type string'],
    ];
    for (const [path, patch, shown, cause] of cases) {
      const res = await smp(path, patch);
      expect(res.status, `${patch}: ${res.text}`).to.equal(422);
      expect(res.body.reason).to.equal('Invalid');
      expect(res.body.message, patch).to.equal(` "" is invalid: patch: Invalid value: ${JSON.stringify(shown)}: ${cause}`);
      expect(res.body.details?.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(shown)}: ${cause}`, field: 'patch' }]);
    }
  });

  it('a conversion error trumps strict-field problems; a patch that converts is taken', async () => {
    const both = await smp(`${configMap}?fieldValidation=Strict`, '{"zz":1,"data":{"k":5}}');
    expect(both.status).to.equal(422);
    expect(both.body.message).to.equal(' "" is invalid: patch: Invalid value: "map[data:map[k:5] zz:1]": cannot convert int64 to string');
    const ok = await call<{ spec: { replicas: number } }>('PATCH', deployment, '{"spec":{"replicas":4}}', 'application/strategic-merge-patch+json');
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.body.spec.replicas).to.equal(4);
  });

  it('an integer too wide for an int32 field is no error: it keeps its low 32 bits (Go\'s conversion), and validation sees that', async () => {
    const wrapped = await call<{ spec: { replicas: number } }>('PATCH', deployment, '{"spec":{"replicas":4294967297}}', 'application/strategic-merge-patch+json');
    expect(wrapped.status, wrapped.text).to.equal(200);
    expect(wrapped.body.spec.replicas).to.equal(1);
    const negative = await smp(deployment, '{"spec":{"replicas":2147483648}}');
    expect(negative.status, negative.text).to.equal(422);
    expect(negative.body.message).to.equal('Deployment.apps "web" is invalid: spec.replicas: Invalid value: -2147483648: must be greater than or equal to 0');
    // The JSON decode of a merge patch's result refuses it, as the typed decoder does.
    const merge = await call<Status>('PATCH', deployment, '{"spec":{"replicas":4294967297}}', 'application/merge-patch+json');
    expect(merge.status, merge.text).to.equal(422);
    expect(merge.body.message.endsWith(': json: cannot unmarshal number 4294967297 into Go struct field DeploymentSpec.spec.replicas of type int32')).to.equal(true);
  });
});
