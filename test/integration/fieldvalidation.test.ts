// fieldValidation=Strict|Warn|Ignore (default Warn) on create, update, patch and apply,
// through HTTP: unknown and duplicate fields with upstream's messages and order, as a
// failed request (Strict) or Warning headers (Warn); unknown fields are never stored.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: unknown[] } }
interface Obj { metadata: { name: string; resourceVersion: string }; data?: Record<string, string>; [k: string]: unknown }

/** The texts of `Warning: 299 - "..."` headers, unescaped. */
function warnings(res: HttpResponse<unknown>): string[] {
  const raw = res.headers['warning'];
  const joined = Array.isArray(raw) ? raw.join(', ') : raw ?? '';
  return [...joined.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
}

describe('fieldValidation', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `fv-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const json = { 'Content-Type': 'application/json' };
  // Document order: a duplicate where it repeats, an unknown field where it first appears.
  const body = (name: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"${name}","labels":{"a":"1"},"unknownMeta":"x"},`
    + '"data":{"k":"v","k":"w"},"unknown1":"u","unknownDupe":"a","unknownDupe":"b"}';
  const expected = ['duplicate field "metadata.name"', 'unknown field "metadata.unknownMeta"', 'duplicate field "data.k"',
    'unknown field "unknown1"', 'unknown field "unknownDupe"'];

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('Strict create: 400 listing every problem in document order', async () => {
    const res = await call<Status>('POST', `${cms}?fieldValidation=Strict`, body('strict'), json);
    expect(res.status).to.equal(400);
    expect(res.body.reason).to.equal('BadRequest');
    expect(res.body.message).to.equal(`ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: ${expected.join(', ')}`);
    expect((await call('GET', `${cms}/strict`)).status).to.equal(404);
  });

  it('a kind served through a conversion (autoscaling/v1 HPA): unknown fields of the document as sent', async () => {
    const hpas = `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
    const hpa = (name: string) => `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"${name}"},`
      + '"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d","bogus":1},"maxReplicas":3,'
      + '"targetCPUUtilizationPercentage":50,"foo":"x"}}';
    const strict = await call<Status>('POST', `${hpas}?fieldValidation=Strict`, hpa('strict'), json);
    expect(strict.status, strict.text).to.equal(400);
    expect(strict.body.message).to.equal('HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: '
      + 'strict decoding error: unknown field "spec.scaleTargetRef.bogus", unknown field "spec.foo"');
    const warned = await call<Obj>('POST', `${hpas}?fieldValidation=Warn`, hpa('warned'), json);
    expect(warned.status, warned.text).to.equal(201);
    expect(warnings(warned)).to.deep.equal(['unknown field "spec.scaleTargetRef.bogus"', 'unknown field "spec.foo"']);
    expect(warned.body.spec).to.deep.equal({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
    const yaml = 'apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: yaml\nspec:\n  scaleTargetRef:\n'
      + '    apiVersion: apps/v1\n    kind: Deployment\n    name: d\n    bogus: 1\n  maxReplicas: 3\n  foo: x\n';
    const strictYaml = await call<Status>('POST', `${hpas}?fieldValidation=Strict`, yaml, { 'Content-Type': 'application/yaml' });
    expect(strictYaml.status, strictYaml.text).to.equal(400);
    expect(strictYaml.body.message).to.equal('HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: '
      + 'strict decoding error: unknown field "spec.foo", unknown field "spec.scaleTargetRef.bogus"');
  });

  it('an events.k8s.io/v1 Event (stored as a core Event, the same round trip): unknown fields of the document as sent', async () => {
    const event = '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"reason":"R","note":"n","foo":1,'
      + '"regarding":{"kind":"ConfigMap","name":"c","bar":2}}';
    const strictEvent = await call<Status>('POST', `/apis/events.k8s.io/v1/namespaces/${ns}/events?fieldValidation=Strict`, event, json);
    expect(strictEvent.status, strictEvent.text).to.equal(400);
    expect(strictEvent.body.message).to.equal('Event in version "v1" cannot be handled as a Event: '
      + 'strict decoding error: unknown field "foo", unknown field "regarding.bar"');
  });

  it('Warn (the default) and Ignore create: Warning headers or none; unknown fields are not stored', async () => {
    for (const [query, name, want] of [['?fieldValidation=Warn', 'warn', expected], ['', 'default', expected], ['?fieldValidation=Ignore', 'ignore', []]] as const) {
      const res = await call<Obj>('POST', `${cms}${query}`, body(name), json);
      expect(res.status, res.text).to.equal(201);
      expect(warnings(res), query).to.deep.equal(want);
      expect(res.body.data).to.deep.equal({ k: 'w' });
      const got = await call<Obj>('GET', `${cms}/${name}`);
      expect(Object.keys(got.body).sort()).to.deep.equal(['apiVersion', 'data', 'kind', 'metadata']);
      expect(got.body.metadata).to.not.have.property('unknownMeta');
    }
  });

  it('writes the header as upstream: 299 - "unknown field \\"spec.foo\\""', async () => {
    const res = await call('POST', '/api/v1/namespaces', { metadata: { name: `${ns}-x` }, spec: { foo: 'bar' } });
    expect(res.status).to.equal(201);
    expect(res.headers['warning']).to.equal('299 - "unknown field \\"spec.foo\\""');
    await call('DELETE', `/api/v1/namespaces/${ns}-x`);
  });

  it('YAML bodies: repeated keys by line, then unknown fields in sorted order', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y1\n  name: yaml\nzeta: 1\ndata:\n  k: v\nalpha: 2\n';
    const strict = await call<Status>('POST', `${cms}?fieldValidation=Strict`, yaml, { 'Content-Type': 'application/yaml' });
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map, unknown field "alpha", unknown field "zeta"');
    const warn = await call('POST', cms, yaml, { 'Content-Type': 'application/yaml' });
    expect(warn.status, warn.text).to.equal(201);
    expect(warnings(warn)).to.deep.equal(['line 5: key "name" already set in map', 'unknown field "alpha"', 'unknown field "zeta"']);
  });

  it('update (PUT) checks the same way', async () => {
    const got = await call<Obj>('GET', `${cms}/warn`);
    const put = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"warn","resourceVersion":"${got.body.metadata.resourceVersion}"},"data":{"k":"1"},"extra":true}`;
    const strict = await call<Status>('PUT', `${cms}/warn?fieldValidation=Strict`, put, json);
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra"');
    const warn = await call('PUT', `${cms}/warn`, put, json);
    expect(warn.status, warn.text).to.equal(200);
    expect(warnings(warn)).to.deep.equal(['unknown field "extra"']);
  });

  it('patches: duplicates in the patch, then unknown fields of the result; Strict is 422 on "patch"', async () => {
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const patch = '{"data":{"x":"1","x":"2"},"zz":1,"aa":2}';
    const strict = await call<Status>('PATCH', `${cms}/warn?fieldValidation=Strict`, patch, merge);
    expect(strict.status).to.equal(422);
    expect(strict.body.reason).to.equal('Invalid');
    expect(strict.body.message).to.match(/^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: duplicate field "data.x", unknown field "aa", unknown field "zz"$/s);
    const warn = await call<Obj>('PATCH', `${cms}/warn`, patch, merge);
    expect(warn.status, warn.text).to.equal(200);
    expect(warnings(warn)).to.deep.equal(['duplicate field "data.x"', 'unknown field "aa"', 'unknown field "zz"']);
    expect(warn.body).to.not.have.property('zz');
    const jp = '[{"op":"add","path":"/data/y","value":"1","foo":"bar"},{"op":"add","path":"/a","path":"/b","value":1}]';
    const jpWarn = await call('PATCH', `${cms}/warn`, jp, { 'Content-Type': 'application/json-patch+json' });
    expect(jpWarn.status, jpWarn.text).to.equal(200);
    expect(warnings(jpWarn)).to.deep.equal(['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"', 'unknown field "b"']);
    const smp = await call<Status>('PATCH', `${cms}/warn?fieldValidation=Strict`, '{"data":{"z":"1"},"q":{"r":1}}', { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(smp.status).to.equal(422);
    expect(smp.body.message).to.equal(' "" is invalid: patch: Invalid value: "map[data:map[z:1] q:map[r:1]]": strict decoding error: unknown field "q"');
    const ignored = await call<Obj>('PATCH', `${cms}/warn?fieldValidation=Ignore`, patch, merge);
    expect(ignored.status).to.equal(200);
    expect(warnings(ignored)).to.deep.equal([]);
    // Unknown fields are dropped whether or not they were looked for.
    expect(ignored.body).to.not.have.property('aa');
    expect(ignored.body).to.not.have.property('zz');
  });

  it('merge patches: what the patch sets is type-checked and checked for unknown fields, at any depth', async () => {
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    expect((await call('POST', cms, { metadata: { name: 'typed', labels: { a: '1' } }, data: { k: 'v' } }, json)).status).to.equal(201);
    const cases: Array<[string, string]> = [
      ['{"data":{"k":5}}', 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
      ['{"metadata":{"labels":{"b":{"c":1}}}}', 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string'],
      ['{"metadata":{"labels":{"a":"2"},"generation":"x"}}', 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64'],
      // The result's order (data before immutable, in the stored object and in Go's sorted encoding), not the patch's.
      ['{"immutable":1,"data":{"k":2}}', 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
    ];
    // Upstream's merge patcher decodes the patched document first: a 422 on "patch" showing
    // that document (Go's encoding, keys sorted) with the decoder's error.
    for (const [patch, cause] of cases) {
      const res = await call<Status>('PATCH', `${cms}/typed`, patch, merge);
      expect(res.status, patch).to.equal(422);
      expect(res.body.reason, patch).to.equal('Invalid');
      expect(res.body.message, patch).to.match(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",.*\}": (.*)$/s);
      expect(res.body.message.endsWith(`": ${cause}`), res.body.message).to.equal(true);
      expect(res.body.details?.causes, patch).to.have.length(1);
    }
    // A type error trumps strict problems, as in upstream's patcher; a JSON patch the same way.
    const both = await call<Status>('PATCH', `${cms}/typed?fieldValidation=Strict`, '{"nope":1,"data":{"k":5}}', merge);
    expect(both.status).to.equal(422);
    expect(both.body.message).to.match(/": json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
    const jsonPatch = await call<Status>('PATCH', `${cms}/typed`, '[{"op":"replace","path":"/data/k","value":7}]', { 'Content-Type': 'application/json-patch+json' });
    expect(jsonPatch.status).to.equal(422);
    expect(jsonPatch.body.message).to.match(/^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/s);
    const warn = await call<Obj>('PATCH', `${cms}/typed`, '{"metadata":{"labels":{"b":"2"},"nope":1},"data":{"k":"w"}}', merge);
    expect(warn.status, warn.text).to.equal(200);
    expect(warnings(warn)).to.deep.equal(['unknown field "metadata.nope"']);
    expect(warn.body.metadata).to.not.have.property('nope');
    expect(warn.body.data).to.deep.equal({ k: 'w' });
  });

  it('apply: repeated keys are a 400 for Strict and warnings for Warn', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  k: a\n  k: b\n';
    const apply = { 'Content-Type': 'application/apply-patch+yaml' };
    const strict = await call<Status>('PATCH', `${cms}/applied?fieldManager=m&fieldValidation=Strict`, yaml, apply);
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal('error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "k" already set in map');
    const warn = await call<Obj>('PATCH', `${cms}/applied?fieldManager=m`, yaml, apply);
    expect(warn.status, warn.text).to.equal(201);
    expect(warnings(warn)).to.deep.equal(['line 7: key "k" already set in map']);
    expect(warn.body.data).to.deep.equal({ k: 'b' });
    const ignore = await call('PATCH', `${cms}/applied?fieldManager=m&fieldValidation=Ignore`, yaml, apply);
    expect(warnings(ignore)).to.deep.equal([]);
  });
});
