// The HTTP contract of the spine, checked field by field against upstream's Status
// bodies and codes, through a real replica on a real etcd.
import { expect } from 'chai';
import { request, startReplicas, type Cluster } from '../harness/index.js';

describe('HTTP API: status bodies, codes and representations', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let base: string;
  const ns = `http-${Date.now().toString(36)}`;
  const call = (path: string, opts: Parameters<typeof request>[1] = {}) =>
    request(`${base}${path}`, { ...cluster.credentialsFor('admin'), ...opts });
  const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' }, ...extra });

  before(async () => {
    cluster = await startReplicas(2);
    base = cluster.urls[0];
    const r = await call('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: ns } } });
    expect(r.status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('404 NotFound for a missing object', async () => {
    const r = await call(`/api/v1/namespaces/${ns}/configmaps/missing`);
    expect(r.status).to.equal(404);
    expect(r.headers['content-type']).to.equal('application/json'); // no charset parameter, as upstream
    expect(r.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'configmaps "missing" not found', reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' }, code: 404,
    });
  });

  it('404 NotFound for a group-qualified kind names the group', async () => {
    const r = await call(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/none`);
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.include({ message: 'roles.rbac.authorization.k8s.io "none" not found', reason: 'NotFound' });
    expect((r.body as { details: unknown }).details).to.deep.equal({ name: 'none', group: 'rbac.authorization.k8s.io', kind: 'roles' });
  });

  it('201 on create, 409 AlreadyExists on a second create', async () => {
    const first = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('dup') });
    expect(first.status).to.equal(201);
    const obj = first.body as { metadata: Record<string, unknown> };
    expect(obj.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
    expect(obj.metadata.resourceVersion).to.match(/^\d+$/);
    expect(obj.metadata.creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const second = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('dup') });
    expect(second.status).to.equal(409);
    expect(second.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'configmaps "dup" already exists', reason: 'AlreadyExists',
      details: { name: 'dup', kind: 'configmaps' }, code: 409,
    });
  });

  it('409 Conflict for an update with a stale resourceVersion, read through the other replica', async () => {
    const created = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('rv') });
    const rv = (created.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const upd = await request(`${cluster.urls[1]}/api/v1/namespaces/${ns}/configmaps/rv`, {
      ...cluster.credentialsFor('admin'), method: 'PUT', body: cm('rv', { metadata: { name: 'rv', resourceVersion: rv }, data: { k: 'v2' } }),
    });
    expect(upd.status).to.equal(200);
    const stale = await call(`/api/v1/namespaces/${ns}/configmaps/rv`, {
      method: 'PUT', body: cm('rv', { metadata: { name: 'rv', resourceVersion: rv }, data: { k: 'v3' } }),
    });
    expect(stale.status).to.equal(409);
    expect(stale.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Operation cannot be fulfilled on configmaps "rv": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict', details: { name: 'rv', kind: 'configmaps' }, code: 409,
    });
  });

  it('422 Invalid with field causes', async () => {
    const r = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('Bad_Name') });
    expect(r.status).to.equal(422);
    const body = r.body as { message: string; reason: string; details: { name: string; kind: string; causes: unknown[] } };
    expect(body.reason).to.equal('Invalid');
    expect(body.message).to.match(/^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(body.details.name).to.equal('Bad_Name');
    expect(body.details.kind).to.equal('ConfigMap');
    expect(body.details.causes).to.have.length(1);
    expect(body.details.causes[0]).to.deep.include({ reason: 'FieldValueInvalid', field: 'metadata.name' });
  });

  it('400 for malformed JSON and for a namespace that contradicts the URL', async () => {
    const bad = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: '{"metadata": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.include({ kind: 'Status', reason: 'BadRequest', code: 400 });
    const mismatch = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('x', { metadata: { name: 'x', namespace: 'other' } }) });
    expect(mismatch.status).to.equal(400);
    expect((mismatch.body as { message: string }).message).to.equal('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('413 for a body over 3 MiB, and nothing stored', async () => {
    const big = JSON.stringify(cm('big', { data: { k: 'x'.repeat(3 * 1024 * 1024 + 10) } }));
    const r = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
    expect(r.status).to.equal(413);
    expect(r.body).to.deep.include({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    const after = await call(`/api/v1/namespaces/${ns}/configmaps/big`);
    expect(after.status).to.equal(404);
  });

  it('415 for an unknown body type, 406 for an unacceptable response type', async () => {
    const r = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(r.status).to.equal(415);
    expect(r.body).to.deep.include({ reason: 'UnsupportedMediaType', code: 415 });
    const p = await call(`/api/v1/namespaces/${ns}/configmaps/dup`, { method: 'PATCH', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(p.status).to.equal(415);
    const n = await call(`/api/v1/namespaces/${ns}/configmaps`, { headers: { accept: 'application/xml' } });
    expect(n.status).to.equal(406);
    expect(n.body).to.deep.include({ reason: 'NotAcceptable', code: 406,
      message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf' });
  });

  it('404 for an unknown resource and 405 for a verb the resource lacks', async () => {
    const r = await call('/api/v1/widgets');
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.include({ kind: 'Status', reason: 'NotFound', message: 'the server could not find the requested resource' });
    const del = await call('/api/v1/namespaces', { method: 'DELETE' });
    expect(del.status).to.equal(405);
    expect(del.body).to.deep.include({ reason: 'MethodNotAllowed', code: 405 });
    const put = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'PUT', body: cm('x') });
    expect(put.status).to.equal(405);
    // A cluster-scoped kind has no route under a namespace, virtual or not.
    const review = await call(`/apis/authentication.k8s.io/v1/namespaces/${ns}/tokenreviews`, { method: 'POST', body: { spec: { token: 'x' } } });
    expect(review.status).to.equal(404);
    const role = await call(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/clusterroles`);
    expect(role.status).to.equal(404);
  });

  it('DELETE answers with a Success Status naming the object', async () => {
    const created = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('gone') });
    const uid = (created.body as { metadata: { uid: string } }).metadata.uid;
    const r = await call(`/api/v1/namespaces/${ns}/configmaps/gone`, { method: 'DELETE' });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'gone', kind: 'configmaps', uid } });
  });

  it('serves YAML and Table representations by Accept', async () => {
    const y = await call(`/api/v1/namespaces/${ns}/configmaps/dup`, { headers: { accept: 'application/yaml' } });
    expect(y.status).to.equal(200);
    expect(y.headers['content-type']).to.equal('application/yaml');
    expect(y.text).to.match(/^apiVersion: v1\nkind: ConfigMap\n/m);
    const t = await call(`/api/v1/namespaces/${ns}/configmaps`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    expect(t.status).to.equal(200);
    expect(t.headers['content-type']).to.equal('application/json'); // upstream names the serializer, not the transform
    const table = t.body as { kind: string; apiVersion: string; columnDefinitions: Array<{ name: string }>; rows: Array<{ cells: unknown[]; object: { kind: string } }> };
    expect(table.kind).to.equal('Table');
    expect(table.apiVersion).to.equal('meta.k8s.io/v1');
    expect(table.columnDefinitions.map((c) => c.name)).to.deep.equal(['Name', 'Data', 'Age']);
    const dupRow = table.rows.find((r) => r.cells[0] === 'dup');
    expect(dupRow?.cells[1]).to.equal(1);
    expect(dupRow?.object.kind).to.equal('PartialObjectMetadata');
  });

  it('lists carry the list kind and a resourceVersion, and a write on one replica is read on the other at once', async () => {
    await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cm('fresh') });
    const list = await request(`${cluster.urls[1]}/api/v1/namespaces/${ns}/configmaps`, cluster.credentialsFor('admin'));
    expect(list.headers['content-type']).to.equal('application/json');
    const body = list.body as { kind: string; apiVersion: string; metadata: { resourceVersion: string }; items: Array<{ metadata: { name: string } }> };
    expect(body.kind).to.equal('ConfigMapList');
    expect(body.apiVersion).to.equal('v1');
    expect(body.metadata.resourceVersion).to.match(/^\d+$/);
    expect(body.items.map((i) => i.metadata.name)).to.include('fresh');
  });

  it('generateName produces a unique name with upstream\'s suffix alphabet', async () => {
    const r = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: { metadata: { generateName: 'gen-' } } });
    expect(r.status).to.equal(201);
    expect((r.body as { metadata: { name: string } }).metadata.name).to.match(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('discovery answers /api, /apis and group versions in upstream\'s shapes', async () => {
    const api = await call('/api');
    expect(api.body).to.deep.include({ kind: 'APIVersions', versions: ['v1'] });
    const apis = await call('/apis');
    const groups = (apis.body as { kind: string; groups: Array<{ name: string; preferredVersion: { groupVersion: string } }> });
    expect(groups.kind).to.equal('APIGroupList');
    expect(groups.groups.find((g) => g.name === 'rbac.authorization.k8s.io')?.preferredVersion.groupVersion).to.equal('rbac.authorization.k8s.io/v1');
    const v1 = await call('/api/v1');
    const cmRes = (v1.body as { resources: Array<Record<string, unknown>> }).resources.find((r) => r.name === 'configmaps');
    expect(cmRes).to.deep.include({ singularName: 'configmap', namespaced: true, kind: 'ConfigMap', shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=' });
    expect(cmRes?.verbs).to.deep.equal(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  it('health endpoints and /version', async () => {
    const live = await call('/livez?verbose');
    expect(live.status).to.equal(200);
    expect(live.text).to.contain('[+]etcd ok');
    expect(live.text.trim().endsWith('livez check passed')).to.equal(true);
    const ready = await call('/readyz?verbose');
    for (const hook of ['start-kube-apiserver-admission-initializer', 'start-system-namespaces-controller', 'scheduling/bootstrap-system-priority-classes',
      'kube-apiserver-autoregistration', 'rbac/bootstrap-roles', 'generic-apiserver-start-informers', 'crd-informer-synced',
      'start-apiextensions-controllers', 'priority-and-fairness-filter', 'bootstrap-controller']) {
      expect(ready.text).to.contain(`[+]poststarthook/${hook} ok`);
    }
    const ex = await call('/readyz?verbose&exclude=etcd-readiness');
    expect(ex.text).to.contain('[+]etcd-readiness excluded: ok');
    const v = await call('/version');
    expect((v.body as { major: string; minor: string }).major).to.equal('1');
    expect((v.body as { minor: string }).minor).to.equal('28');
  });

  it('/metrics counts requests by verb, resource and code', async () => {
    const m = await call('/metrics');
    expect(m.status).to.equal(200);
    const line = m.text.split('\n').find((l) => l.startsWith('apiserver_request_total{')
      && l.includes('verb="GET"') && l.includes('resource="configmaps"') && l.includes('code="404"'));
    expect(line, m.text).to.match(/ [1-9]\d*$/);
  });
});
