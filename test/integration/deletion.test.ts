// DELETE and deletecollection through HTTP: DeleteOptions from body or query with
// upstream's validation, preconditions (409), the GC finalizers a propagation policy
// adds, the 202 kept for orphanDependents=false, and deletecollection with selectors,
// limit and continue.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

// These tests count every ConfigMap in their namespace, so the root-CA publisher (which
// adds kube-root-ca.crt to each namespace) is off, as upstream runs such tests without
// a controller manager.
const withoutRootCA = ['--controllers=*,-root-ca-cert-publisher'];

interface Obj { metadata: { name: string; resourceVersion: string; uid: string; deletionTimestamp?: string; finalizers?: string[] } }
interface List { kind: string; metadata: { continue?: string; resourceVersion?: string }; items: Obj[] }
interface Status { kind: string; code: number; reason: string; message: string; status: string; details?: Record<string, unknown> }

describe('deletion: DeleteOptions and deletecollection', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `del-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const create = async (name: string, extra: Record<string, unknown> = {}): Promise<Obj> => {
    const res = await call<Obj>('POST', cms, { metadata: { name, ...extra } });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };

  before(async () => {
    cluster = await startReplicas(1, { extraArgs: withoutRootCA });
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('answers a deleted object with a Success Status naming it', async () => {
    const obj = await create('plain');
    const res = await call<Status>('DELETE', `${cms}/plain`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'plain', kind: 'configmaps', uid: obj.metadata.uid } });
    const missing = await call<Status>('DELETE', `${cms}/plain`);
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('configmaps "plain" not found');
  });

  it('checks preconditions with upstream\'s 409 messages', async () => {
    const obj = await create('pre');
    let res = await call<Status>('DELETE', `${cms}/pre`, { preconditions: { uid: 'not-it' } });
    expect(res.status).to.equal(409);
    expect(res.body.reason).to.equal('Conflict');
    expect(res.body.message).to.equal(`Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (not-it) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`);
    res = await call<Status>('DELETE', `${cms}/pre`, { preconditions: { resourceVersion: '1' } });
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal(`Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`);
    res = await call<Status>('DELETE', `${cms}/pre`, { preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion } });
    expect(res.status, res.text).to.equal(200);
  });

  it('validates DeleteOptions as upstream', async () => {
    await create('opts');
    let res = await call<Status>('DELETE', `${cms}/opts?propagationPolicy=Sometimes`);
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"');
    res = await call<Status>('DELETE', `${cms}/opts`, { orphanDependents: true, propagationPolicy: 'Orphan' });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
    res = await call<Status>('DELETE', `${cms}/opts`, { kind: 'ConfigMap' });
    expect(res.status).to.equal(400);
    // A negative grace period means "now" (upstream treats it as 1s; nothing here is graceful).
    res = await call<Status>('DELETE', `${cms}/opts?gracePeriodSeconds=-5`);
    expect(res.status, res.text).to.equal(200);
  });

  it('adds the orphan and foregroundDeletion finalizers for Orphan and Foreground, replacing each other', async () => {
    // A finalizer of our own keeps the object around so the GC finalizers stay visible.
    await create('prop', { finalizers: ['example.com/hold'] });
    let res = await call<Obj>('DELETE', `${cms}/prop`, { propagationPolicy: 'Orphan' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.metadata.finalizers).to.deep.equal(['example.com/hold', 'orphan']);
    res = await call<Obj>('DELETE', `${cms}/prop`, { propagationPolicy: 'Foreground' });
    expect(res.body.metadata.finalizers).to.deep.equal(['example.com/hold', 'foregroundDeletion']);
    res = await call<Obj>('DELETE', `${cms}/prop?orphanDependents=true`);
    expect(res.body.metadata.finalizers).to.deep.equal(['example.com/hold', 'orphan']);
    // orphanDependents=false asks for cascading: the object stays, answered with 202.
    res = await call<Obj>('DELETE', `${cms}/prop`, { orphanDependents: false });
    expect(res.status).to.equal(202);
    expect(res.body.metadata.finalizers).to.deep.equal(['example.com/hold']);
    res = await call<Obj>('PATCH', `${cms}/prop`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(res.status).to.equal(200);
    expect((await call('GET', `${cms}/prop`)).status).to.equal(404);
  });

  it('deletecollection deletes what the selectors pick, page by page with limit and continue', async () => {
    for (let i = 0; i < 5; i++) await create(`batch-${i}`, { labels: { batch: 'yes', idx: String(i) } });
    await create('keep', { labels: { batch: 'no' } });
    const page = await call<List>('DELETE', `${cms}?labelSelector=batch%3Dyes&limit=2`);
    expect(page.status, page.text).to.equal(200);
    expect(page.body.kind).to.equal('ConfigMapList');
    expect(page.body.items.map((i) => i.metadata.name)).to.deep.equal(['batch-0', 'batch-1']);
    expect(page.body.metadata.continue).to.be.a('string');
    const rest = await call<List>('DELETE', `${cms}?labelSelector=batch%3Dyes&continue=${encodeURIComponent(page.body.metadata.continue!)}`);
    expect(rest.status, rest.text).to.equal(200);
    expect(rest.body.items.map((i) => i.metadata.name)).to.deep.equal(['batch-2', 'batch-3', 'batch-4']);
    expect(rest.body.metadata.continue ?? '').to.equal('');
    const field = await call<List>('DELETE', `${cms}?fieldSelector=metadata.name%3Dkeep`);
    expect(field.body.items.map((i) => i.metadata.name)).to.deep.equal(['keep']);
    const left = await call<List>('GET', cms);
    expect(left.body.items.map((i) => i.metadata.name)).to.deep.equal([]);
  });

  it('deletecollection marks objects with finalizers, as a delete of each would', async () => {
    await create('f1', { labels: { group: 'f' }, finalizers: ['example.com/hold'] });
    await create('f2', { labels: { group: 'f' }, finalizers: ['example.com/hold'] });
    const res = await call<List>('DELETE', `${cms}?labelSelector=group%3Df`, { propagationPolicy: 'Foreground' });
    expect(res.status, res.text).to.equal(200);
    for (const name of ['f1', 'f2']) {
      const got = await call<Obj>('GET', `${cms}/${name}`);
      expect(got.body.metadata.deletionTimestamp).to.be.a('string');
      // (The garbage collector soon drops foregroundDeletion: these have no dependents.)
      expect(got.body.metadata.finalizers?.[0]).to.equal('example.com/hold');
      await call('PATCH', `${cms}/${name}`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    }
  });

  it('namespaces serve no deletecollection', async () => {
    const res = await call<Status>('DELETE', '/api/v1/namespaces');
    expect(res.status).to.equal(405);
  });
});
