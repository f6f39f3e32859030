// dryRun=All on every write runs everything but the storage write: the answer is what
// would be stored, with the normal code, and etcd (read directly) does not change.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { request, startReplicas, testEtcdClient, type Cluster, type HttpResponse } from '../harness/index.js';

interface Obj { metadata: { name: string; resourceVersion?: string; uid?: string; deletionTimestamp?: string; finalizers?: string[]; managedFields?: Array<{ manager: string }> }; data?: Record<string, string> }
interface Status { code: number; reason: string; message: string }

describe('dry run', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  let etcd: Etcd3;
  const ns = `dry-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const key = (name: string) => `${cluster.etcdPrefix}/configmaps/${ns}/${name}`;
  /** The stored bytes and revision of a key, straight from etcd. */
  const stored = async (name: string) => {
    const res = await etcd.get(key(name)).exec();
    const kv = res.kvs[0];
    return kv ? { value: kv.value.toString(), mod: kv.mod_revision } : undefined;
  };

  before(async () => {
    cluster = await startReplicas(1);
    etcd = await testEtcdClient();
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    expect((await call('POST', cms, { metadata: { name: 'base', finalizers: ['example.com/keep'] }, data: { a: '1' } })).status).to.equal(201);
    expect((await call('POST', cms, { metadata: { name: 'plain', labels: { sel: 'yes' } }, data: { a: '1' } })).status).to.equal(201);
  });
  after(async () => {
    await call('PATCH', `${cms}/base`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    etcd?.close();
    await cluster?.stop();
  });

  it('POST answers 201 with the would-be object and writes nothing', async () => {
    const res = await call<Obj>('POST', `${cms}?dryRun=All&fieldManager=dry`, { metadata: { generateName: 'gen-' }, data: { k: 'v' } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.metadata.name).to.match(/^gen-[a-z0-9]{5}$/);
    expect(res.body.metadata.uid).to.be.a('string');
    expect(res.body.metadata.managedFields?.map((e) => e.manager)).to.deep.equal(['dry']);
    expect(await stored(res.body.metadata.name)).to.equal(undefined);
  });

  it('POST still runs validation and admission', async () => {
    const res = await call<Status>('POST', `${cms}?dryRun=All`, { metadata: { name: 'Bad_Name' } });
    expect(res.status).to.equal(422);
    const missing = await call<Status>('POST', '/api/v1/namespaces/no-such-ns/configmaps?dryRun=All', { metadata: { name: 'x' } });
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('namespaces "no-such-ns" not found');
  });

  it('PUT, PATCH and apply answer the would-be object and leave etcd as it was', async () => {
    const before = await stored('plain');
    const got = await call<Obj>('GET', `${cms}/plain`);
    const put = await call<Obj>('PUT', `${cms}/plain?dryRun=All`, { ...got.body, data: { a: 'put' } });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.data).to.deep.equal({ a: 'put' });
    const patch = await call<Obj>('PATCH', `${cms}/plain?dryRun=All`, '{"data":{"b":"2"}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(patch.status, patch.text).to.equal(200);
    expect(patch.body.data).to.deep.equal({ a: '1', b: '2' });
    const apply = await call<Obj>('PATCH', `${cms}/plain?dryRun=All&fieldManager=ssa`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\ndata:\n  c: "3"\n', { 'Content-Type': 'application/apply-patch+yaml' });
    expect(apply.status, apply.text).to.equal(200);
    expect(apply.body.data).to.deep.equal({ a: '1', c: '3' });
    const create = await call<Obj>('PATCH', `${cms}/applied?dryRun=All&fieldManager=ssa`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n', { 'Content-Type': 'application/apply-patch+yaml' });
    expect(create.status, create.text).to.equal(201);
    expect(await stored('plain')).to.deep.equal(before);
    expect(await stored('applied')).to.equal(undefined);
  });

  it('DELETE answers as a real delete would and keeps the object', async () => {
    const before = await stored('plain');
    const del = await call<{ status: string; details: { name: string } }>('DELETE', `${cms}/plain?dryRun=All`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body).to.deep.include({ status: 'Success' });
    expect(del.body.details.name).to.equal('plain');
    // With finalizers: the marked object, not written.
    const fin = await stored('base');
    const marked = await call<Obj>('DELETE', `${cms}/base`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
    expect(marked.status, marked.text).to.equal(200);
    expect(marked.body.metadata.deletionTimestamp).to.be.a('string');
    expect(await stored('plain')).to.deep.equal(before);
    expect(await stored('base')).to.deep.equal(fin);
  });

  it('deletecollection deletes nothing', async () => {
    const before = await stored('plain');
    const res = await call<{ kind: string; items: Obj[] }>('DELETE', `${cms}?dryRun=All&labelSelector=sel%3Dyes`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.kind).to.equal('ConfigMapList');
    expect(res.body.items.map((i) => i.metadata.name)).to.deep.equal(['plain']);
    expect(await stored('plain')).to.deep.equal(before);
  });

  it('refuses any dryRun value but All with upstream\'s 422', async () => {
    const res = await call<Status>('DELETE', `${cms}/plain?dryRun=true`);
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"true"}: supported values: "All"');
    const patch = await call<Status>('PATCH', `${cms}/plain?dryRun=All&dryRun=Nope`, '{}', { 'Content-Type': 'application/merge-patch+json' });
    expect(patch.body.message).to.equal('PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "Nope"}: supported values: "All"');
  });
});
