// Server-side apply through HTTP against real etcd: create by apply, ownership in
// managedFields (FieldsV1), conflicts (409 with a cause per field), force, shared
// ownership, removal of dropped fields, list and map semantics from the schema markers,
// Update operations taking fields over, and resetting managedFields.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Entry { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: Record<string, unknown>; subresource?: string }
interface Obj {
  apiVersion: string; kind: string;
  metadata: { name: string; uid: string; resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; ownerReferences?: Array<{ uid: string; name: string }>; managedFields?: Entry[] };
  data?: Record<string, string>; rules?: unknown[];
}
interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } }

describe('server-side apply', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `apply-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const apply = <T = Obj>(path: string, manager: string, body: string | Record<string, unknown>, extra = '') =>
    call<T>('PATCH', `${path}?fieldManager=${manager}${extra}`, typeof body === 'string' ? body : JSON.stringify(body), { 'Content-Type': 'application/apply-patch+yaml' });
  const cm = (name: string, data?: Record<string, string>, meta: Record<string, unknown> = {}) =>
    ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, ...(data ? { data } : {}) });
  const owned = (o: Obj) => Object.fromEntries((o.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('requires fieldManager (422) and creates a missing object (201), YAML or JSON', async () => {
    const missing = await call<Status>('PATCH', `${cms}/made`, JSON.stringify(cm('made')), { 'Content-Type': 'application/apply-patch+yaml' });
    expect(missing.status).to.equal(422);
    expect(missing.body.message).to.equal('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const made = await apply(`${cms}/made`, 'alice', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made\n  labels:\n    app: demo\ndata:\n  k: v\n');
    expect(made.status, made.text).to.equal(201);
    expect(made.body.metadata.managedFields).to.have.length(1);
    const [e] = made.body.metadata.managedFields!;
    expect(e).to.include({ manager: 'alice', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1' });
    expect(e.time).to.match(/Z$/);
    expect(e.fieldsV1).to.deep.equal({ 'f:data': { 'f:k': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    // Applying the same configuration again changes nothing.
    const again = await apply(`${cms}/made`, 'alice', cm('made', { k: 'v' }, { labels: { app: 'demo' } }));
    expect(again.status).to.equal(200);
    expect(again.body.metadata.resourceVersion).to.equal(made.body.metadata.resourceVersion);
  });

  it('refuses a change to a field another manager owns with a 409 naming each field and manager; force wins', async () => {
    await apply(`${cms}/c`, 'alice', cm('c', { k1: 'a', k2: 'a', mine: 'x' }));
    const one = await apply<Status>(`${cms}/c`, 'bob', cm('c', { k1: 'b' }));
    expect(one.status).to.equal(409);
    expect(one.body).to.deep.include({ reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "alice": .data.k1' });
    expect(one.body.details).to.deep.equal({ causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.k1' }] });
    const two = await apply<Status>(`${cms}/c`, 'bob', cm('c', { k1: 'b', k2: 'b' }));
    expect(two.body.message).to.equal('Apply failed with 2 conflicts: conflicts with "alice":\n- .data.k1\n- .data.k2');
    expect(two.body.details?.causes?.map((c) => c.field)).to.deep.equal(['.data.k1', '.data.k2']);
    const forced = await apply(`${cms}/c`, 'bob', cm('c', { k1: 'b' }), '&force=true');
    expect(forced.status, forced.text).to.equal(200);
    expect(forced.body.data).to.deep.equal({ k1: 'b', k2: 'a', mine: 'x' });
    expect(owned(forced.body)).to.deep.equal({
      'alice/Apply': { 'f:data': { 'f:k2': {}, 'f:mine': {} } },
      'bob/Apply': { 'f:data': { 'f:k1': {} } },
    });
  });

  it('shares ownership of equal values, and removes dropped fields only when nobody else owns them', async () => {
    await apply(`${cms}/s`, 'alice', cm('s', { shared: 'same', solo: 'x' }));
    const bob = await apply(`${cms}/s`, 'bob', cm('s', { shared: 'same' }));
    expect(bob.status, bob.text).to.equal(200);
    expect(owned(bob.body)['bob/Apply']).to.deep.equal({ 'f:data': { 'f:shared': {} } });
    // A change to a shared value conflicts with the other owner.
    const change = await apply<Status>(`${cms}/s`, 'alice', cm('s', { shared: 'new', solo: 'x' }));
    expect(change.status).to.equal(409);
    expect(change.body.message).to.equal('Apply failed with 1 conflict: conflict with "bob": .data.shared');
    // alice drops both: solo goes, shared stays with bob.
    const dropped = await apply(`${cms}/s`, 'alice', cm('s', { other: 'y' }));
    expect(dropped.status, dropped.text).to.equal(200);
    expect(dropped.body.data).to.deep.equal({ shared: 'same', other: 'y' });
  });

  it('lets an Update take a field over; the applier then conflicts with the updater', async () => {
    const first = await apply(`${cms}/u`, 'alice', cm('u', { k: 'v' }));
    const body = structuredClone(first.body);
    body.data = { k: 'edited' };
    const put = await call<Obj>('PUT', `${cms}/u?fieldManager=editor`, body);
    expect(put.status, put.text).to.equal(200);
    expect(owned(put.body)).to.deep.equal({ 'editor/Update': { 'f:data': { 'f:k': {} } } });
    const back = await apply<Status>(`${cms}/u`, 'alice', cm('u', { k: 'v' }));
    expect(back.status).to.equal(409);
    expect(back.body.message).to.equal('Apply failed with 1 conflict: conflict with "editor" using v1: .data.k');
  });

  it('treats finalizers as a set and ownerReferences as a map keyed by uid', async () => {
    const owner = await call<Obj>('POST', cms, { metadata: { name: 'owner' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid };
    await apply(`${cms}/l`, 'alice', cm('l', undefined, { finalizers: ['example.com/a'], ownerReferences: [ref] }));
    const both = await apply(`${cms}/l`, 'bob', cm('l', undefined, { finalizers: ['example.com/b'] }));
    expect(both.body.metadata.finalizers).to.deep.equal(['example.com/a', 'example.com/b']);
    expect(owned(both.body)['alice/Apply']).to.deep.equal({
      'f:metadata': {
        'f:finalizers': { 'v:"example.com/a"': {} },
        // OwnerReference is an atomic struct: the item is owned whole.
        'f:ownerReferences': { [`k:{"uid":"${ref.uid}"}`]: {} },
      },
    });
    const conflict = await apply<Status>(`${cms}/l`, 'bob', cm('l', undefined, { ownerReferences: [{ ...ref, name: 'renamed' }] }));
    expect(conflict.status).to.equal(409);
    expect(conflict.body.message).to.equal(`Apply failed with 1 conflict: conflict with "alice": .metadata.ownerReferences[uid="${ref.uid}"]`);
    const dropped = await apply(`${cms}/l`, 'alice', cm('l'));
    expect(dropped.body.metadata.finalizers).to.deep.equal(['example.com/b']);
    expect(dropped.body.metadata.ownerReferences).to.equal(undefined);
    await call('PATCH', `${cms}/l`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
  });

  it('treats lists without markers as atomic and x-kubernetes-map-type=atomic structs as one field', async () => {
    const roles = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`;
    const role = (rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules });
    const first = await apply(`${roles}/r`, 'alice', role([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]));
    expect(first.status, first.text).to.equal(201);
    expect(owned(first.body)['alice/Apply']).to.deep.equal({ 'f:rules': {} });
    const other = await apply<Status>(`${roles}/r`, 'bob', role([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]));
    expect(other.status).to.equal(409);
    expect(other.body.message).to.equal('Apply failed with 1 conflict: conflict with "alice": .rules');
    const bindings = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`;
    const binding = (name: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name } });
    const made = await apply(`${bindings}/b`, 'alice', binding('r'));
    expect(owned(made.body)['alice/Apply']).to.deep.equal({ 'f:roleRef': {} });
    const atomic = await apply<Status>(`${bindings}/b`, 'bob', binding('other'));
    expect(atomic.body.message).to.equal('Apply failed with 1 conflict: conflict with "alice": .roleRef');
  });

  it('resets managedFields with a single empty entry (merge or JSON patch); an empty list does not', async () => {
    await apply(`${cms}/m`, 'alice', cm('m', { k: 'v' }));
    const empty = await call<Obj>('PATCH', `${cms}/m`, '{"metadata":{"managedFields":[]}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(empty.status, empty.text).to.equal(200);
    expect(Object.keys(owned(empty.body))).to.deep.equal(['alice/Apply']);
    const reset = await call<Obj>('PATCH', `${cms}/m`, '{"metadata":{"managedFields":[{}]}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(reset.status, reset.text).to.equal(200);
    expect(reset.body.metadata.managedFields).to.equal(undefined);
    await apply(`${cms}/m`, 'alice', cm('m', { k: 'v' }));
    const withChange = await call<Obj>('PATCH', `${cms}/m?fieldManager=resetter`,
      '[{"op":"replace","path":"/metadata/managedFields","value":[{}]},{"op":"add","path":"/data/n","value":"1"}]', { 'Content-Type': 'application/json-patch+json' });
    expect(withChange.status, withChange.text).to.equal(200);
    expect(owned(withChange.body)).to.deep.equal({ 'resetter/Update': { 'f:data': { 'f:n': {} } } });
  });

  it('rejects configurations upstream rejects', async () => {
    let res = await apply<Status>(`${cms}/bad`, 'alice', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bad' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('invalid object type: /v1, Kind=Secret');
    res = await apply<Status>(`${cms}/bad`, 'alice', { ...cm('bad'), metadata: { name: 'bad', managedFields: [] } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('metadata.managedFields must be nil');
    res = await apply<Status>(`${cms}/bad`, 'alice', { ...cm('bad'), spec: { x: 1 } });
    expect(res.status).to.equal(400);
    expect(res.body.reason).to.equal('BadRequest');
    expect(res.body.message).to.equal('failed to create typed patch object (/bad; /v1, Kind=ConfigMap): .spec: field not declared in schema');
    res = await apply<Status>(`${cms}/bad`, 'alice', cm('other'));
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the name of the object (other) does not match the name on the URL (bad)');
    res = await apply<Status>(`${cms}/bad`, 'alice', cm('bad', undefined, { uid: 'made-up' }));
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal('Operation cannot be fulfilled on configmaps "bad": uid mismatch: the provided object specified uid made-up, and no existing object was found');
    expect((await call('GET', `${cms}/bad`)).status).to.equal(404);
  });

  it('applies to the status subresource as its own manager', async () => {
    const name = `st-${Date.now().toString(36)}`;
    await call('POST', '/api/v1/namespaces', { metadata: { name } });
    const res = await apply(`/api/v1/namespaces/${name}/status`, 'reporter',
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    expect(res.status, res.text).to.equal(200);
    const entry = res.body.metadata.managedFields!.find((e) => e.manager === 'reporter')!;
    expect(entry).to.include({ operation: 'Apply', subresource: 'status' });
    expect(entry.fieldsV1).to.deep.equal({ 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } } } });
    await call('DELETE', `/api/v1/namespaces/${name}`);
  });
});
