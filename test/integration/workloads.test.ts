// Workload resources over HTTP against real replicas: upstream's fixture objects are
// created and answered as upstream did; the fixture invalid writes get upstream's exact
// status; scale, binding, eviction (with a PodDisruptionBudget), field selectors and
// tables work across replicas.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { invalidFixture, objectFixture, stripVolatile, withoutPodAdmissionFields } from '../harness/surface-fixtures.js';
import type { KubeObject } from '../../pkg/runtime/object.js';
import type { Obj } from '../../pkg/apis/core/types.js';

const ns = 'fixtures';

const collections: Record<string, string> = {
  'v1.Pod': `/api/v1/namespaces/${ns}/pods`,
  'v1.PodTemplate': `/api/v1/namespaces/${ns}/podtemplates`,
  'v1.ReplicationController': `/api/v1/namespaces/${ns}/replicationcontrollers`,
  'apps_v1.Deployment': `/apis/apps/v1/namespaces/${ns}/deployments`,
  'apps_v1.ReplicaSet': `/apis/apps/v1/namespaces/${ns}/replicasets`,
  'apps_v1.StatefulSet': `/apis/apps/v1/namespaces/${ns}/statefulsets`,
  'apps_v1.DaemonSet': `/apis/apps/v1/namespaces/${ns}/daemonsets`,
  'apps_v1.ControllerRevision': `/apis/apps/v1/namespaces/${ns}/controllerrevisions`,
  'batch_v1.Job': `/apis/batch/v1/namespaces/${ns}/jobs`,
  'batch_v1.CronJob': `/apis/batch/v1/namespaces/${ns}/cronjobs`,
  'policy_v1.PodDisruptionBudget': `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`,
};

const objectFixtures = ['v1.Pod.p', 'v1.Pod.p-full', 'v1.PodTemplate.pt', 'v1.ReplicationController.rc', 'apps_v1.Deployment.d',
  'apps_v1.ReplicaSet.rs', 'apps_v1.StatefulSet.ss', 'apps_v1.DaemonSet.ds', 'apps_v1.ControllerRevision.cr', 'batch_v1.Job.j',
  'batch_v1.CronJob.cj', 'policy_v1.PodDisruptionBudget.pdb'];

/** Values only the run decides: Job uids in labels and selectors. */
function normalizeJob(o: KubeObject, uid: string): unknown {
  return JSON.parse(JSON.stringify(o).split(uid).join('UID')) as unknown;
}

describe('workloads over HTTP', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const replay = (name: string) => {
    const f = invalidFixture(name);
    const body = typeof f.request.body === 'string' ? f.request.body : JSON.stringify(f.request.body);
    return { f, res: call(f.request.method, f.request.path, body, { 'Content-Type': f.request.contentType }) };
  };

  before(async () => {
    cluster = await startReplicas(2);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('creates every fixture object as upstream answered', async () => {
    for (const [i, name] of objectFixtures.entries()) {
      const f = objectFixture(name);
      const kind = name.split('.').slice(0, 2).join('.');
      const res = await call<KubeObject>('POST', collections[kind]!, f.request, {}, i % 2);
      expect(res.status, name).to.equal(201);
      const got = stripVolatile(res.body);
      const want = stripVolatile(f.response);
      if (kind === 'v1.Pod') {
        withoutPodAdmissionFields(got.spec as Obj);
        withoutPodAdmissionFields(want.spec as Obj);
      }
      if (kind === 'batch_v1.Job') {
        expect(normalizeJob(got, res.body.metadata.uid!), name).to.deep.equal(normalizeJob(want, f.response.metadata.uid!));
      } else {
        expect(got, name).to.deep.equal(want);
      }
    }
  });

  for (const name of ['pod-bad-container-name', 'pod-bad-env-name', 'pod-bad-port', 'pod-bad-pull-policy', 'pod-bad-resources',
    'pod-bad-restart-policy', 'pod-dup-container-names', 'pod-missing-volume', 'pod-no-containers', 'pod-no-image',
    'deploy-negative-replicas', 'deploy-no-selector', 'deploy-selector-mismatch', 'deploy-selector-immutable',
    'job-restart-always', 'cronjob-bad-schedule']) {
    it(`answers ${name} as upstream`, async () => {
      const { f, res } = replay(name);
      const r = await res;
      expect(r.status).to.equal(f.status);
      expect(r.body).to.deep.equal(f.response);
    });
  }

  it('answers pdb-both-min-max as upstream (Go pointer addresses aside)', async () => {
    const { f, res } = replay('pdb-both-min-max');
    const r = await res;
    const addr = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/0xc[0-9a-f]+/g, '0xADDR')) as unknown;
    expect(r.status).to.equal(422);
    expect(addr(r.body)).to.deep.equal(addr(f.response));
  });

  it('pod updates: image allowed, other spec changes forbidden with upstream\'s message', async () => {
    const ok = replay('pod-update-image-allowed');
    const okRes = await ok.res;
    expect(okRes.status).to.equal(200);
    expect(((okRes.body.spec as Obj).containers as Obj[])[0]!.image).to.equal('nginx:1.26');
    const bad = replay('pod-update-spec-forbidden');
    const r = await bad.res;
    expect(r.status).to.equal(422);
    // Upstream appends a go-cmp diff of its internal Go structs; ours lists the changed
    // fields (see pkg/apis/core/diff.ts). Everything else must be identical.
    const withoutDiff = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x: unknown) =>
      (typeof x === 'string' ? x.replace(/negative\)\n[\s\S]*\n(\]?)$/, 'negative)\n<diff>\n$1') : x))) as unknown;
    expect(withoutDiff(r.body)).to.deep.equal(withoutDiff(bad.f.response));
  });

  it('scales a deployment through autoscaling/v1 Scale (scale-deployment) and bumps generation', async () => {
    const { f, res } = replay('scale-deployment');
    const r = await res;
    expect(r.status).to.equal(200);
    const strip = (o: Record<string, unknown>) => ({ ...o, metadata: { name: (o.metadata as Obj).name, namespace: (o.metadata as Obj).namespace } });
    expect(strip(r.body)).to.deep.equal(strip(f.response));
    const d = await call<KubeObject>('GET', `${collections['apps_v1.Deployment']}/d`, undefined, {}, 1);
    expect((d.body.spec as Obj).replicas).to.equal(3);
    expect(d.body.metadata.generation).to.equal(2); // the selector patch was refused: scale is the first spec change
  });

  it('serves scale for replicationcontrollers with a map selector, and refuses negative replicas', async () => {
    const get = await call('GET', `${collections['v1.ReplicationController']}/rc/scale`);
    expect(get.status).to.equal(200);
    expect(get.body.status).to.deep.equal({ replicas: 0, selector: 'app=web' });
    const put = await call('PUT', `${collections['v1.ReplicationController']}/rc/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'rc' }, spec: { replicas: -1 } });
    expect(put.status).to.equal(422);
    expect(put.body.message).to.equal('Scale.autoscaling "rc" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('binds a pod once (binding-pod, binding-pod-again) and selects it by spec.nodeName', async () => {
    for (const name of ['binding-pod', 'binding-pod-again']) {
      const { f, res } = replay(name);
      const r = await res;
      expect(r.status, name).to.equal(f.status);
      expect(r.body, name).to.deep.equal(f.response);
    }
    const list = await call<{ items: KubeObject[] }>('GET', `${collections['v1.Pod']}?fieldSelector=spec.nodeName%3Dfixtures-node`, undefined, {}, 1);
    expect(list.body.items.map((p) => p.metadata.name)).to.deep.equal(['p-full']);
    const pending = await call<{ items: KubeObject[] }>('GET', `/api/v1/pods?fieldSelector=status.phase%3DPending,spec.restartPolicy%3DAlways`);
    expect(pending.body.items.map((p) => p.metadata.name).sort()).to.deep.equal(['p', 'p-full']);
    const cond = ((await call<KubeObject>('GET', `${collections['v1.Pod']}/p-full`)).body.status as Obj).conditions as Obj[];
    expect(cond.map((c) => [c.type, c.status])).to.deep.equal([['PodScheduled', 'True']]);
  });

  it('binds through the legacy bindings resource', async () => {
    const pod = { metadata: { name: 'legacy' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await call('POST', collections['v1.Pod']!, pod)).status).to.equal(201);
    const r = await call('POST', `/api/v1/namespaces/${ns}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'legacy' }, target: { kind: 'Node', name: 'n2' } });
    expect(r.status).to.equal(201);
    const got = await call<KubeObject>('GET', `${collections['v1.Pod']}/legacy`, undefined, {}, 1);
    expect((got.body.spec as Obj).nodeName).to.equal('n2');
  });

  it('prints pods as a Table with upstream\'s wide columns', async () => {
    const r = await call<{ columnDefinitions: Array<{ name: string; priority: number }>; rows: Array<{ cells: unknown[] }> }>(
      'GET', `${collections['v1.Pod']}?fieldSelector=metadata.name%3Dp-full`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(r.body.columnDefinitions.map((c) => `${c.name}:${c.priority}`)).to.deep.equal([
      'Name:0', 'Ready:0', 'Status:0', 'Restarts:0', 'Age:0', 'IP:1', 'Node:1', 'Nominated Node:1', 'Readiness Gates:1']);
    const cells = r.body.rows[0]!.cells;
    expect([...cells.slice(0, 4), ...cells.slice(5)]).to.deep.equal(['p-full', '0/1', 'Pending', '0', '<none>', 'fixtures-node', '<none>', '<none>']);
  });

  it('evicts a pending pod directly (eviction-pod)', async () => {
    const { f, res } = replay('eviction-pod');
    const r = await res;
    expect(r.status).to.equal(201);
    expect(r.body).to.deep.equal(f.response);
    expect((await call('GET', `${collections['v1.Pod']}/p`)).status).to.equal(404);
  });

  it('eviction honours a PodDisruptionBudget: 429 while it allows none, then decrements it', async () => {
    const pods = collections['v1.Pod']!;
    expect((await call('POST', pods, { metadata: { name: 'guarded', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).to.equal(201);
    const running = await call<KubeObject>('GET', `${pods}/guarded`);
    running.body.status = { ...(running.body.status as Obj), phase: 'Running' };
    expect((await call('PUT', `${pods}/guarded/status`, running.body)).status).to.equal(200);
    const evict = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'guarded', namespace: ns } };
    const pdbPath = `${collections['policy_v1.PodDisruptionBudget']}/pdb`;
    // The budget's controller has not observed it yet.
    const early = await call('POST', `${pods}/guarded/eviction`, evict);
    expect(early.status).to.equal(429);
    expect(early.body.message).to.equal("Cannot evict pod as it would violate the pod's disruption budget.");
    expect((early.body.details as Obj).causes).to.deep.equal([{ reason: 'DisruptionBudget', message: 'The disruption budget pdb is still being processed by the server.' }]);
    const pdb = await call<KubeObject>('GET', pdbPath);
    pdb.body.status = { ...(pdb.body.status as Obj), observedGeneration: pdb.body.metadata.generation, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, disruptionsAllowed: 0 };
    expect((await call('PUT', `${pdbPath}/status`, pdb.body)).status).to.equal(200);
    const denied = await call('POST', `${pods}/guarded/eviction`, evict, {}, 1);
    expect(denied.status).to.equal(429);
    expect((denied.body.details as Obj).causes).to.deep.equal([{ reason: 'DisruptionBudget', message: 'The disruption budget pdb needs 1 healthy pods and has 1 currently' }]);
    const again = await call<KubeObject>('GET', pdbPath);
    again.body.status = { ...(again.body.status as Obj), currentHealthy: 2, disruptionsAllowed: 1 };
    expect((await call('PUT', `${pdbPath}/status`, again.body)).status).to.equal(200);
    const allowed = await call('POST', `${pods}/guarded/eviction`, { ...evict, apiVersion: 'policy/v1beta1' });
    expect(allowed.status).to.equal(201);
    const after = await call<KubeObject>('GET', pdbPath, undefined, {}, 1);
    expect((after.body.status as Obj).disruptionsAllowed).to.equal(0);
    expect(Object.keys((after.body.status as Obj).disruptedPods as Obj)).to.deep.equal(['guarded']);
    expect((await call('GET', `${pods}/guarded`)).status).to.equal(404);
  });

  it('binds every pod of a set through alternating replicas, then concurrent evictions take exactly what the budget allows', async () => {
    const pods = collections['v1.Pod']!;
    const names = Array.from({ length: 12 }, (_, i) => `set-${i}`);
    await Promise.all(names.map(async (name, i) => {
      const r = await call('POST', pods, { metadata: { name, labels: { app: 'set' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, {}, i % 2);
      expect(r.status, name).to.equal(201);
    }));
    // The scheduler's writes: one Binding per pod, spread over both replicas, all at once.
    const bound = await Promise.all(names.map((name, i) => call('POST', `${pods}/${name}/binding`,
      { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: `node-${i % 3}` } }, {}, i % 2)));
    expect(bound.map((r) => r.status)).to.deep.equal(names.map(() => 201));
    const rebound = await call('POST', `${pods}/set-0/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'set-0' }, target: { kind: 'Node', name: 'node-9' } }, {}, 1);
    expect(rebound.status).to.equal(409);
    const onNode = await call<{ items: KubeObject[] }>('GET', `${pods}?fieldSelector=spec.nodeName%3Dnode-1`, undefined, {}, 1);
    expect(onNode.body.items.map((p) => p.metadata.name).sort()).to.deep.equal(['set-1', 'set-10', 'set-4', 'set-7']);
    // The kubelets report them running (a pending pod is evicted without asking the budget).
    await Promise.all(names.map(async (name, i) => {
      const pod = await call<KubeObject>('GET', `${pods}/${name}`, undefined, {}, i % 2);
      pod.body.status = { ...(pod.body.status as Obj), phase: 'Running' };
      expect((await call('PUT', `${pods}/${name}/status`, pod.body, {}, i % 2)).status).to.equal(200);
    }));
    // What the disruption controller would publish: 12 healthy, 10 needed, 2 disruptions allowed.
    const pdbs = collections['policy_v1.PodDisruptionBudget']!;
    expect((await call('POST', pdbs, { metadata: { name: 'set-budget' }, spec: { minAvailable: 10, selector: { matchLabels: { app: 'set' } } } })).status).to.equal(201);
    const pdb = await call<KubeObject>('GET', `${pdbs}/set-budget`);
    pdb.body.status = { observedGeneration: pdb.body.metadata.generation, currentHealthy: 12, desiredHealthy: 10, expectedPods: 12, disruptionsAllowed: 2 };
    expect((await call('PUT', `${pdbs}/set-budget/status`, pdb.body)).status).to.equal(200);
    const evicted = await Promise.all(names.slice(0, 6).map((name, i) => call('POST', `${pods}/${name}/eviction`,
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } }, {}, i % 2)));
    const codes = evicted.map((r) => r.status);
    expect(codes.filter((c) => c === 201)).to.have.length(2);
    expect(codes.filter((c) => c === 429)).to.have.length(4);
    const after = await call<KubeObject>('GET', `${pdbs}/set-budget`, undefined, {}, 1);
    const status = after.body.status as Obj;
    expect(status.disruptionsAllowed).to.equal(0);
    const evictedNames = names.slice(0, 6).filter((_, i) => codes[i] === 201).sort();
    expect(Object.keys(status.disruptedPods as Obj).sort()).to.deep.equal(evictedNames);
    // Bound pods are deleted gracefully: they stay, marked, until their kubelet confirms.
    for (const name of evictedNames) {
      const pod = await call<KubeObject>('GET', `${pods}/${name}`);
      expect(pod.body.metadata.deletionTimestamp, name).to.be.a('string');
    }
  });

  it('deletes a pod on a node gracefully; grace 0 removes it; an unscheduled pod goes at once', async () => {
    const pods = collections['v1.Pod']!;
    const first = await call<KubeObject>('DELETE', `${pods}/p-full`);
    expect(first.status).to.equal(200);
    expect(first.body.kind).to.equal('Pod');
    expect(first.body.metadata.deletionGracePeriodSeconds).to.equal(30);
    const left = Date.parse(first.body.metadata.deletionTimestamp!) - Date.now();
    expect(left).to.be.within(20_000, 31_000);
    expect((await call('GET', `${pods}/p-full`, undefined, {}, 1)).status).to.equal(200);
    const now = await call<KubeObject>('DELETE', `${pods}/p-full?gracePeriodSeconds=0`, undefined, {}, 1);
    expect(now.status).to.equal(200);
    expect((await call('GET', `${pods}/p-full`)).status).to.equal(404);
    expect((await call('POST', pods, { metadata: { name: 'loose' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).to.equal(201);
    const gone = await call<KubeObject>('DELETE', `${pods}/loose`);
    expect(gone.status).to.equal(200);
    expect(gone.body.metadata.name).to.equal('loose');
    expect((await call('GET', `${pods}/loose`)).status).to.equal(404);
  });

  it('lists workloads in discovery with their subresources', async () => {
    const apps = await call<{ resources: Array<{ name: string; kind: string }> }>('GET', '/apis/apps/v1');
    expect(apps.body.resources.map((r) => r.name)).to.include.members(['deployments', 'deployments/scale', 'deployments/status', 'statefulsets/scale', 'replicasets/scale', 'daemonsets/status', 'controllerrevisions']);
    expect(apps.body.resources.find((r) => r.name === 'deployments/scale')?.kind).to.equal('Scale');
  });
});
