// Writes through HTTP against real etcd: the options every write validates (one 422
// per request, upstream's wording), and the managedFields every write records.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Entry { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: Record<string, unknown>; subresource?: string }
interface Obj { metadata: { name: string; resourceVersion: string; uid: string; managedFields?: Entry[]; labels?: Record<string, string> }; data?: Record<string, string>; status?: Record<string, unknown> }
interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } }

describe('writes: options and managedFields', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `writes-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('validates CreateOptions, UpdateOptions and PatchOptions together, as upstream', async () => {
    let res = await call<Status>('POST', `${cms}?dryRun=Some&fieldValidation=Loose`, { metadata: { name: 'x' } });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('CreateOptions.meta.k8s.io "" is invalid: [dryRun: Unsupported value: []string{"Some"}: supported values: "All", fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"]');
    expect(res.body.details?.causes?.map((c) => c.field)).to.deep.equal(['dryRun', 'fieldValidation']);
    res = await call<Status>('PUT', `${cms}/x?fieldManager=${'m'.repeat(129)}`, { metadata: { name: 'x' } });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes');
    res = await call<Status>('PATCH', `${cms}/x?force=true`, '{}', { 'Content-Type': 'application/merge-patch+json' });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    res = await call<Status>('POST', `${cms}?fieldManager=a%07b`, { metadata: { name: 'x' } });
    expect(res.body.message).to.equal('CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)');
  });

  it('records an Update entry for create with the fieldManager, else the User-Agent product', async () => {
    let res = await call<Obj>('POST', `${cms}?fieldManager=creator`, { metadata: { name: 'mf', labels: { app: 'a' } }, data: { k: 'v' } });
    expect(res.status, res.text).to.equal(201);
    const [entry] = res.body.metadata.managedFields!;
    expect(entry).to.include({ manager: 'creator', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1' });
    expect(entry.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(entry.fieldsV1).to.deep.equal({ 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
    res = await call<Obj>('POST', cms, { metadata: { name: 'ua' } , data: { k: 'v' } }, { 'User-Agent': 'my-tool/1.2.3 (linux)' });
    expect(res.body.metadata.managedFields!.map((e) => e.manager)).to.deep.equal(['my-tool']);
  });

  it('transfers ownership on update and patch, and keeps entries per manager sorted Apply-first by time', async () => {
    const got = await call<Obj>('GET', `${cms}/mf`);
    const body = structuredClone(got.body);
    body.data = { k: 'changed', extra: 'e' };
    let res = await call<Obj>('PUT', `${cms}/mf?fieldManager=updater`, body);
    expect(res.status, res.text).to.equal(200);
    const byManager = (o: Obj) => Object.fromEntries(o.metadata.managedFields!.map((e) => [e.manager, e.fieldsV1]));
    expect(byManager(res.body)).to.deep.equal({
      creator: { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      updater: { 'f:data': { 'f:extra': {}, 'f:k': {} } },
    });
    res = await call<Obj>('PATCH', `${cms}/mf?fieldManager=labeler`, '{"metadata":{"labels":{"app":"b"}}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(res.status, res.text).to.equal(200);
    expect(byManager(res.body)['labeler']).to.deep.equal({ 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    expect(byManager(res.body)['creator']).to.deep.equal({ 'f:data': {}, 'f:metadata': { 'f:labels': {} } });
    // A write that changes nothing adds no entry and no new resourceVersion.
    const again = await call<Obj>('PATCH', `${cms}/mf?fieldManager=noop`, '{"metadata":{"labels":{"app":"b"}}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(again.body.metadata.resourceVersion).to.equal(res.body.metadata.resourceVersion);
    expect(again.body.metadata.managedFields!.map((e) => e.manager)).to.not.include('noop');
  });

  it('records status subresource writes with subresource "status" and keeps status out of main-resource entries', async () => {
    const name = `sub-${Date.now().toString(36)}`;
    await call('POST', '/api/v1/namespaces?fieldManager=maker', { metadata: { name } });
    const ns1 = await call<Obj>('GET', `/api/v1/namespaces/${name}`);
    const body = structuredClone(ns1.body);
    body.status = { phase: 'Active', conditions: [{ type: 'Custom', status: 'True' }] };
    const res = await call<Obj>('PUT', `/api/v1/namespaces/${name}/status?fieldManager=statuser`, body);
    expect(res.status, res.text).to.equal(200);
    const entry = res.body.metadata.managedFields!.find((e) => e.manager === 'statuser')!;
    expect(entry.subresource).to.equal('status');
    expect(entry.fieldsV1).to.deep.equal({ 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"Custom"}': { '.': {}, 'f:status': {}, 'f:type': {} } } } });
    const maker = res.body.metadata.managedFields!.find((e) => e.manager === 'maker')!;
    expect(maker.fieldsV1).to.deep.equal({ 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } });
    await call('DELETE', `/api/v1/namespaces/${name}`);
  });

  it('a JSON patch\'s test of an object looks only at the stored object\'s keys, as upstream\'s patch library does', async () => {
    expect((await call('POST', cms, { metadata: { name: 'tested' }, data: { k: 'v' } })).status).to.equal(201);
    const patch = (ops: unknown[]): Promise<HttpResponse<Obj>> =>
      call<Obj>('PATCH', `${cms}/tested`, JSON.stringify(ops), { 'Content-Type': 'application/json-patch+json' });
    // A key only the test's value has is not looked at: the test passes and the add is made.
    const extra = await patch([{ op: 'test', path: '/data', value: { k: 'v', other: 'x' } }, { op: 'add', path: '/data/k2', value: 'w' }]);
    expect(extra.status, extra.text).to.equal(200);
    expect(extra.body.data).to.deep.equal({ k: 'v', k2: 'w' });
    // A stored key the test's value lacks fails it.
    const missing = await patch([{ op: 'test', path: '/data', value: { k: 'v' } }, { op: 'add', path: '/data/k3', value: 'z' }]);
    expect(missing.status, missing.text).to.equal(422);
    expect((await call<Obj>('GET', `${cms}/tested`)).body.data).to.deep.equal({ k: 'v', k2: 'w' });
  });

  it('checks the name and namespace of a PUT against the URL', async () => {
    let res = await call<Status>('PUT', `${cms}/mf`, { metadata: { name: 'other' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the name of the object (other) does not match the name on the URL (mf)');
    res = await call<Status>('PUT', `${cms}/mf`, { metadata: { name: 'mf', namespace: 'elsewhere' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal(`the namespace of the object (elsewhere) does not match the namespace on the request (${ns})`);
  });
});
