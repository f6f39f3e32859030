// Two-phase deletion (SPEC 3.1) through HTTP: a delete marks an object that has
// finalizers, updates keep working, no finalizer may be added, and the update removing
// the last finalizer removes the object (its DELETED event carries the last state).
import { expect } from 'chai';
import { request, startReplicas, watch, type Cluster, type HttpResponse } from '../harness/index.js';

interface Obj { metadata: { name: string; resourceVersion: string; uid: string; generation?: number; deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[] }; data?: Record<string, string> }
interface Status { code: number; reason: string; message: string }

describe('finalizers and two-phase deletion', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `fin-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const merge = <T>(path: string, patch: unknown) => call<T>('PATCH', path, JSON.stringify(patch), { 'Content-Type': 'application/merge-patch+json' });

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('marks an object with finalizers (deletionTimestamp, grace 0) and keeps it; a second delete changes nothing', async () => {
    await call('POST', cms, { metadata: { name: 'a', finalizers: ['example.com/one', 'example.com/two'] } });
    const del = await call<Obj>('DELETE', `${cms}/a`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body.metadata.deletionTimestamp).to.match(/Z$/);
    expect(del.body.metadata.deletionGracePeriodSeconds).to.equal(0);
    expect(del.body.metadata.finalizers).to.deep.equal(['example.com/one', 'example.com/two']);
    const again = await call<Obj>('DELETE', `${cms}/a`);
    expect(again.status).to.equal(200);
    expect(again.body.metadata.resourceVersion).to.equal(del.body.metadata.resourceVersion);
    expect(again.body.metadata.deletionTimestamp).to.equal(del.body.metadata.deletionTimestamp);
  });

  it('lets a terminating object be updated but not gain finalizers', async () => {
    const upd = await merge<Obj>(`${cms}/a`, { data: { still: 'writable' } });
    expect(upd.status, upd.text).to.equal(200);
    expect(upd.body.data).to.deep.equal({ still: 'writable' });
    const add = await merge<Status>(`${cms}/a`, { metadata: { finalizers: ['example.com/one', 'example.com/two', 'example.com/three'] } });
    expect(add.status).to.equal(422);
    expect(add.body.message).to.equal('ConfigMap "a" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/three"}');
  });

  it('removes the object with the update that drops the last finalizer', async () => {
    const w = await watch<{ metadata: Obj['metadata'] }>(`${cluster.urls[0]}${cms}?watch=1&fieldSelector=metadata.name%3Da`, cluster.credentialsFor());
    try {
      await w.next(); // ADDED (current state)
      const one = await merge<Obj>(`${cms}/a`, { metadata: { finalizers: ['example.com/two'] } });
      expect(one.status).to.equal(200);
      expect((await call('GET', `${cms}/a`)).status).to.equal(200);
      const last = await merge<Obj>(`${cms}/a`, { metadata: { finalizers: [] } });
      expect(last.status, last.text).to.equal(200);
      expect(last.body.metadata.finalizers ?? []).to.deep.equal([]);
      const gone = await call<Status>('GET', `${cms}/a`);
      expect(gone.status).to.equal(404);
      const types: string[] = [];
      for (;;) {
        const ev = await w.next(5000);
        types.push(ev.type);
        if (ev.type === 'DELETED') {
          expect(ev.object.metadata.finalizers).to.deep.equal(['example.com/two']);
          break;
        }
      }
      expect(types).to.deep.equal(['MODIFIED', 'DELETED']);
    } finally {
      w.close();
    }
  });

  it('bumps generation on the deleting mark only for objects that track it', async () => {
    await call('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/' + ns + '/roles', { metadata: { name: 'r', finalizers: ['example.com/x'] }, rules: [] });
    const del = await call<Obj>('DELETE', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/r`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body.metadata.generation).to.equal(undefined);
    await call('PUT', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/r`, { ...del.body, metadata: { ...del.body.metadata, finalizers: undefined } });
    expect((await call('GET', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/r`)).status).to.equal(404);
  });
});
