// The garbage collector through HTTP on two replicas: background, foreground (with
// blockOwnerDeletion) and orphan propagation over ownerReferences, dangling references,
// and a second replica taking over when the leader running the controllers dies.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface OwnerRef { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean }
interface Obj { metadata: { name: string; uid: string; deletionTimestamp?: string; finalizers?: string[]; ownerReferences?: OwnerRef[] } }
interface List { items: Obj[] }

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';

describe('garbage collector', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  let replica = 0;
  const ns = `gc-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const create = async (name: string, meta: Record<string, unknown> = {}): Promise<Obj> => {
    const res = await call<Obj>('POST', cms, { metadata: { name, ...meta } });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  const ref = (o: Obj, block?: boolean): OwnerRef => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid, ...(block === undefined ? {} : { blockOwnerDeletion: block }) });
  const names = async (): Promise<string[]> => (await call<List>('GET', cms)).body.items.map((i) => i.metadata.name).sort();
  const gone = (name: string) => async () => (await call('GET', `${cms}/${name}`)).status === 404;

  before(async () => {
    cluster = await startReplicas(2);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('deletes dependents in the background once their owner is gone', async () => {
    const owner = await create('bg-owner');
    await create('bg-dep1', { ownerReferences: [ref(owner)] });
    await create('bg-dep2', { ownerReferences: [ref(owner)] });
    expect((await call('DELETE', `${cms}/bg-owner`)).status).to.equal(200);
    await eventually('background dependents to go', async () => !(await names()).some((n) => n.startsWith('bg-')));
  });

  it('keeps a foreground-deleted owner until its blocking dependents are gone', async () => {
    const owner = await create('fg-owner');
    await create('fg-blocking', { ownerReferences: [ref(owner, true)], finalizers: ['example.com/slow'] });
    await create('fg-other', { ownerReferences: [ref(owner)] });
    const del = await call<Obj>('DELETE', `${cms}/fg-owner`, { propagationPolicy: 'Foreground' });
    expect(del.status, del.text).to.equal(200);
    expect(del.body.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    await eventually('dependents to be deleted', async () => {
      const b = await call<Obj>('GET', `${cms}/fg-blocking`);
      return Boolean(b.body.metadata.deletionTimestamp) && (await call('GET', `${cms}/fg-other`)).status === 404;
    });
    // The blocking dependent still exists (its own finalizer), so the owner waits.
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await call<Obj>('GET', `${cms}/fg-owner`);
    expect(waiting.status).to.equal(200);
    expect(waiting.body.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    await call('PATCH', `${cms}/fg-blocking`, '{"metadata":{"finalizers":null}}', { 'Content-Type': 'application/merge-patch+json' });
    await eventually('the owner to go after its blocking dependent', gone('fg-owner'));
  });

  it('orphans dependents: their reference to the owner is removed and they stay', async () => {
    const owner = await create('or-owner');
    const other = await create('or-other-owner');
    await create('or-dep', { ownerReferences: [ref(owner), ref(other)] });
    const del = await call<Obj>('DELETE', `${cms}/or-owner`, { propagationPolicy: 'Orphan' });
    expect(del.body.metadata.finalizers).to.deep.equal(['orphan']);
    await eventually('the owner to go', gone('or-owner'));
    const dep = await call<Obj>('GET', `${cms}/or-dep`);
    expect(dep.status).to.equal(200);
    expect(dep.body.metadata.ownerReferences?.map((r) => r.name)).to.deep.equal(['or-other-owner']);
  });

  it('keeps a dependent that still has a live owner, dropping the reference to the deleted one', async () => {
    const a = await create('two-a');
    const b = await create('two-b');
    await create('two-dep', { ownerReferences: [ref(a), ref(b)] });
    await call('DELETE', `${cms}/two-a`);
    await eventually('the dangling reference to go', async () => {
      const dep = await call<Obj>('GET', `${cms}/two-dep`);
      return dep.status === 200 && dep.body.metadata.ownerReferences?.length === 1;
    });
    expect((await call<Obj>('GET', `${cms}/two-dep`)).body.metadata.ownerReferences![0].name).to.equal('two-b');
  });

  it('deletes an object whose owner never existed (or was replaced under the same name)', async () => {
    const owner = await create('re-owner');
    await call('DELETE', `${cms}/re-owner`);
    await create('re-owner');
    await create('re-dep', { ownerReferences: [ref(owner)] });
    await create('ghost-dep', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: '00000000-0000-0000-0000-000000000000' }] });
    await eventually('dangling dependents to go', async () => (await gone('re-dep')()) && (await gone('ghost-dep')()));
    expect((await call('GET', `${cms}/re-owner`)).status).to.equal(200);
  });

  it('runs in one replica; another takes over when it dies', async () => {
    const leaderLine = '"msg":"became leader; starting controllers"';
    const leaders = () => cluster.replicas.filter((r) => readFileSync(r.logFile, 'utf8').includes(leaderLine)).map((r) => r.index);
    await eventually('a leader', async () => leaders().length > 0);
    expect(leaders()).to.have.length(1);
    const leader = leaders()[0];
    const follower = 1 - leader;
    replica = follower;
    // Kill, not stop: no resignation, so the follower waits out the election lease.
    process.kill(cluster.replicas[leader].pid!, 'SIGKILL');
    const owner = await create('to-owner');
    await create('to-dep', { ownerReferences: [ref(owner)] });
    await call('DELETE', `${cms}/to-owner`);
    // The dead leader's last renewal, read once it can renew no more.
    const lease = async () => (await call<{ spec: { holderIdentity: string; renewTime: string; acquireTime: string } }>('GET', leasePath)).body.spec;
    const last = await lease();
    await eventually('the follower to collect the dependent', gone('to-dep'), 30_000);
    expect(leaders()).to.include(follower);
    // The takeover is timed by the Lease's own timestamps: not before the dead holder's
    // 15 s ran out, and within upstream's 2 s retry period (plus slack) after. Timing it by
    // the wall clock until the dependent went also counted the controllers' start-up and the
    // collector's first sync, which CI's load stretches (it took up to 16.6 s of 20).
    const taken = await lease();
    expect(taken.holderIdentity).to.not.equal(last.holderIdentity);
    const expiry = Date.parse(last.renewTime) + 15_000;
    expect(Date.parse(taken.acquireTime) - expiry).to.be.within(0, 5000);
  });
});
