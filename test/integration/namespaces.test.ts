// Namespace termination (SPEC 3.5) through HTTP: DELETE makes the namespace Terminating
// and keeps it; creates in it are refused; the namespace controller deletes its content
// in every resource, reports progress in status.conditions, and removes the kubernetes
// finalizer through /finalize, which lets the namespace go. NamespaceLifecycle also
// protects the system namespaces and answers 404 for namespaces that do not exist.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Condition { type: string; status: string; reason: string; message: string; lastTransitionTime: string }
interface Ns { metadata: { name: string; uid: string; resourceVersion: string; deletionTimestamp?: string; finalizers?: string[] }; spec: { finalizers?: string[] }; status: { phase: string; conditions?: Condition[] } }
interface Status { code: number; reason: string; message: string; details?: { name?: string; kind?: string; causes?: Array<{ reason: string; message: string; field: string }> } }

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('namespace termination', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  const suffix = Date.now().toString(36);
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const mkns = async (name: string): Promise<void> => {
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name } })).status).to.equal(201);
  };

  before(async () => {
    cluster = await startReplicas(2);
  });
  after(async () => { await cluster?.stop(); });

  it('refuses to delete default, kube-system and kube-public', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const res = await call<Status>('DELETE', `/api/v1/namespaces/${name}`);
      expect(res.status).to.equal(403);
      expect(res.body.reason).to.equal('Forbidden');
      expect(res.body.message).to.equal(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });

  it('answers 404 for writes into a namespace that does not exist', async () => {
    const res = await call<Status>('POST', '/api/v1/namespaces/nowhere-' + suffix + '/configmaps', { metadata: { name: 'x' } });
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal(`namespaces "nowhere-${suffix}" not found`);
    expect(res.body.details).to.deep.include({ name: `nowhere-${suffix}`, kind: 'namespaces' });
  });

  it('empties a deleted namespace in every resource and then removes it', async () => {
    const ns = `full-${suffix}`;
    await mkns(ns);
    const objects: Array<[string, unknown]> = [
      [`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'cm' } }],
      [`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's' }, stringData: { a: 'b' } }],
      [`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa' } }],
      [`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, { metadata: { name: 'r' }, rules: [] }],
      [`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, { metadata: { name: 'l' } }],
    ];
    for (const [path, body] of objects) expect((await call('POST', path, body)).status, path).to.equal(201);
    // A finalizer holds the namespace in Terminating while creates are tried.
    const held = `/api/v1/namespaces/${ns}/configmaps/held`;
    expect((await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status).to.equal(201);
    const del = await call<Ns>('DELETE', `/api/v1/namespaces/${ns}`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body.metadata.deletionTimestamp).to.be.a('string');
    expect(del.body.status.phase).to.equal('Terminating');
    expect(del.body.spec.finalizers).to.deep.equal(['kubernetes']);
    // Nothing new in a terminating namespace, through either replica (the other one
    // learns of the deletion from its watch, a moment later: at CI's load, maybe seconds).
    for (const replica of [0, 1]) {
      let refused = await call<Status>('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'late' } }, {}, replica);
      for (const deadline = Date.now() + 10_000; refused.status !== 403 && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 50));
        refused = await call<Status>('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'late' } }, {}, replica);
      }
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.equal(`configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`);
      expect(refused.body.details?.causes).to.deep.equal([{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }]);
    }
    await call('PATCH', held, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    await eventually('the namespace to go', async () => (await call('GET', `/api/v1/namespaces/${ns}`)).status === 404);
    for (const [path] of objects) {
      const list = await call<{ items: unknown[] }>('GET', path);
      expect(list.body.items, path).to.have.length(0);
    }
  });

  it('reports content held by finalizers in status.conditions and finishes once it is released', async () => {
    const ns = `held-${suffix}`;
    await mkns(ns);
    await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await call('DELETE', `/api/v1/namespaces/${ns}`);
    let conditions: Condition[] = [];
    await eventually('conditions', async () => {
      const got = await call<Ns>('GET', `/api/v1/namespaces/${ns}`);
      conditions = got.body.status.conditions ?? [];
      return conditions.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
    });
    const brief = conditions.map((c) => [c.type, c.status, c.reason, c.message]);
    expect(brief).to.deep.equal([
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 1 resource instances'],
      ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances'],
    ]);
    expect(conditions.every((c) => /Z$/.test(c.lastTransitionTime))).to.equal(true);
    const held = await call<{ metadata: { deletionTimestamp?: string } }>('GET', `/api/v1/namespaces/${ns}/configmaps/held`);
    expect(held.body.metadata.deletionTimestamp).to.be.a('string');
    // Updates inside a terminating namespace still work.
    const upd = await call('PATCH', `/api/v1/namespaces/${ns}/configmaps/held`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    expect(upd.status, upd.text).to.equal(200);
    await eventually('the namespace to go', async () => (await call('GET', `/api/v1/namespaces/${ns}`)).status === 404);
  });

  it('keeps a namespace with an extra spec finalizer until /finalize removes it', async () => {
    const ns = `fz-${suffix}`;
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns }, spec: { finalizers: ['example.com/extra'] } })).status).to.equal(201);
    await call('DELETE', `/api/v1/namespaces/${ns}`);
    await eventually('the controller to remove its finalizer', async () => {
      const got = await call<Ns>('GET', `/api/v1/namespaces/${ns}`);
      return JSON.stringify(got.body.spec.finalizers) === '["example.com/extra"]';
    });
    const got = await call<Ns>('GET', `/api/v1/namespaces/${ns}`);
    expect(got.body.status.phase).to.equal('Terminating');
    // The main resource cannot change spec.finalizers; /finalize can.
    const viaMain = await call<Ns>('PUT', `/api/v1/namespaces/${ns}`,
      { ...got.body, metadata: { ...got.body.metadata, resourceVersion: undefined }, spec: { finalizers: [] } });
    expect(viaMain.status).to.equal(200);
    expect(viaMain.body.spec.finalizers).to.deep.equal(['example.com/extra']);
    // Without a resourceVersion: the controller may still be updating status.
    const fin = await call<Ns>('PUT', `/api/v1/namespaces/${ns}/finalize`,
      { ...got.body, metadata: { ...got.body.metadata, resourceVersion: undefined }, spec: { finalizers: [] } });
    expect(fin.status, fin.text).to.equal(200);
    expect((await call('GET', `/api/v1/namespaces/${ns}`)).status).to.equal(404);
  });

  it('deleting a terminating namespace again answers it unchanged', async () => {
    const ns = `twice-${suffix}`;
    await mkns(ns);
    await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const first = await call<Ns>('DELETE', `/api/v1/namespaces/${ns}`);
    const second = await call<Ns>('DELETE', `/api/v1/namespaces/${ns}`);
    expect(second.status).to.equal(200);
    expect(second.body.metadata.deletionTimestamp).to.equal(first.body.metadata.deletionTimestamp);
    expect(second.body.status.phase).to.equal('Terminating');
    const wrongUid = await call<Status>('DELETE', `/api/v1/namespaces/${ns}`, { preconditions: { uid: 'nope' } });
    expect(wrongUid.status).to.equal(409);
    expect(wrongUid.body.message).to.equal(`Operation cannot be fulfilled on namespaces "${ns}": Precondition failed: UID in precondition: nope, UID in object meta: ${first.body.metadata.uid}`);
    await call('PATCH', `/api/v1/namespaces/${ns}/configmaps/held`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    await eventually('the namespace to go', async () => (await call('GET', `/api/v1/namespaces/${ns}`)).status === 404);
  });
});
