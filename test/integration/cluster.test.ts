// The cluster-infrastructure kinds over HTTP against real replicas: Nodes (stored under
// /registry/minions, status kept apart, spec.unschedulable field selector, Table), the
// system PriorityClasses present from start and undeletable, volume claims and quotas
// with their status subresources, and upstream's 422 bodies.
import { expect } from 'chai';
import { request, startReplicas, testEtcdClient, type Cluster, type HttpResponse } from '../harness/index.js';
import { invalidFixture } from '../harness/surface.js';

interface Obj { metadata: { name: string; resourceVersion?: string; generation?: number }; spec?: Record<string, unknown>; status?: Record<string, unknown>; value?: number }
interface List { items: Obj[] }

describe('cluster resources over HTTP', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  const call = <T = Obj>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  before(async () => { cluster = await startReplicas(2); });
  after(async () => { await cluster?.stop(); });

  it('nodes: created with status, stored under minions, status and spec kept apart', async () => {
    const created = await call('POST', '/api/v1/nodes', { metadata: { name: 'n1' }, spec: { podCIDRs: ['10.0.0.0/24'] },
      status: { capacity: { cpu: '2' }, conditions: [{ type: 'Ready', status: 'True' }] } });
    expect(created.status).to.equal(201);
    expect(created.body.status).to.deep.include({ capacity: { cpu: '2' }, allocatable: { cpu: '2' } });
    const etcd = await testEtcdClient();
    try {
      expect(await etcd.get(`${cluster.etcdPrefix}/minions/n1`).string()).to.be.a('string');
    } finally { etcd.close(); }
    // A main write keeps the stored status; a status write keeps the stored spec.
    const main = await call('PUT', '/api/v1/nodes/n1', { ...created.body, spec: { ...created.body.spec, unschedulable: true }, status: {} }, {}, 1);
    expect(main.status).to.equal(200);
    expect(main.body.spec).to.deep.include({ unschedulable: true });
    expect(main.body.status).to.deep.include({ capacity: { cpu: '2' } });
    const st = await call('PATCH', '/api/v1/nodes/n1/status', { spec: { unschedulable: false }, status: { capacity: { cpu: '4' } } },
      { 'Content-Type': 'application/merge-patch+json' });
    expect(st.status).to.equal(200);
    expect(st.body.spec).to.deep.include({ unschedulable: true });
    expect(st.body.status).to.deep.include({ capacity: { cpu: '4' } });
    await call('POST', '/api/v1/nodes', { metadata: { name: 'n2' } });
    const cordoned = await call<List>('GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue');
    expect(cordoned.body.items.map((n) => n.metadata.name)).to.deep.equal(['n1']);
    const table = await call<{ rows: { cells: unknown[] }[] }>('GET', '/api/v1/nodes', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows.map((r) => [r.cells[0], r.cells[1]])).to.deep.equal([['n1', 'Ready,SchedulingDisabled'], ['n2', 'Unknown']]);
  });

  it('nodes: a bad taint is upstream\'s 422', async () => {
    const fx = invalidFixture('node-bad-taint');
    const res = await call(fx.request.method, fx.request.path, fx.request.body);
    expect(res.status).to.equal(fx.status);
    expect(res.body).to.deep.equal(fx.response);
  });

  it('priorityclasses: the system classes exist from start and cannot be deleted', async () => {
    const list = await call<List>('GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    expect(list.body.items.map((p) => [p.metadata.name, p.value])).to.deep.equal([['system-cluster-critical', 2000000000], ['system-node-critical', 2000001000]]);
    const del = await call<{ code: number; message: string }>('DELETE', '/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical', undefined, {}, 1);
    expect(del.status).to.equal(403);
    expect(del.body.message).to.equal('priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
    const fx = invalidFixture('priorityclass-value-too-high');
    const bad = await call(fx.request.method, fx.request.path, fx.request.body);
    expect([bad.status, bad.body]).to.deep.equal([fx.status, fx.response]);
    const ok = await call('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000 });
    expect(ok.status).to.equal(201);
    expect(ok.body).to.deep.include({ preemptionPolicy: 'PreemptLowerPriority' });
    expect(ok.body.metadata.generation).to.equal(1);
    expect((await call('DELETE', '/apis/scheduling.k8s.io/v1/priorityclasses/high')).status).to.equal(200);
  });

  it('persistentvolumeclaims and resourcequotas: defaults, 422s and the status subresource', async () => {
    const fx = invalidFixture('pvc-no-storage');
    const path = fx.request.path.replace('/fixtures/', '/default/');
    const bad = await call<{ details: unknown }>(fx.request.method, path, fx.request.body);
    expect(bad.status).to.equal(422);
    expect(bad.body.details).to.deep.equal(fx.response.details);
    const pvc = await call('POST', path, { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Bound' } });
    expect(pvc.status).to.equal(201);
    expect(pvc.body.spec).to.deep.include({ volumeMode: 'Filesystem' });
    expect(pvc.body.status).to.deep.equal({ phase: 'Pending' });
    const rq = await call('POST', '/api/v1/namespaces/default/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { pods: '10' } } });
    expect([rq.status, rq.body.status]).to.deep.equal([201, {}]);
    // Unconditional (no resourceVersion): the quota controller may already have written status.
    const unconditional = { ...rq.body, metadata: { ...rq.body.metadata, resourceVersion: undefined } };
    const st = await call('PUT', '/api/v1/namespaces/default/resourcequotas/q/status', { ...unconditional, spec: { hard: { pods: '1' } }, status: { hard: { pods: '10' }, used: { pods: '2' } } });
    expect(st.status).to.equal(200);
    expect([st.body.spec, st.body.status]).to.deep.equal([{ hard: { pods: '10' } }, { hard: { pods: '10' }, used: { pods: '2' } }]);
  });

  it('storageclasses: defaults, and the provisioner-immutable PATCH is upstream\'s 422', async () => {
    const sc = await call<Record<string, unknown>>('POST', '/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'fixtures-sc' }, provisioner: 'example.com/p' });
    expect(sc.status).to.equal(201);
    expect(sc.body).to.deep.include({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    const fx = invalidFixture('storageclass-provisioner-immutable');
    const res = await call(fx.request.method, fx.request.path, fx.request.body, { 'Content-Type': 'application/merge-patch+json' }, 1);
    expect([res.status, res.body]).to.deep.equal([fx.status, fx.response]);
    const va = await call('POST', '/apis/storage.k8s.io/v1/volumeattachments', { metadata: { name: 'va' }, spec: { attacher: 'a.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } } });
    expect([va.status, va.body.status]).to.deep.equal([201, { attached: false }]);
    const st = await call('PATCH', '/apis/storage.k8s.io/v1/volumeattachments/va/status', { status: { attached: true } }, { 'Content-Type': 'application/merge-patch+json' });
    expect([st.status, st.body.status]).to.deep.equal([200, { attached: true }]);
  });

  it('horizontalpodautoscalers: one object seen through autoscaling/v1 and v2', async () => {
    const base = '/apis/autoscaling/%s/namespaces/default/horizontalpodautoscalers';
    const v1 = await call('POST', base.replace('%s', 'v1'), { metadata: { name: 'h1' }, spec: { maxReplicas: 3, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } } });
    expect([v1.status, v1.body.spec]).to.deep.equal([201, { maxReplicas: 3, minReplicas: 1, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, targetCPUUtilizationPercentage: 80 }]);
    const asV2 = await call('GET', `${base.replace('%s', 'v2')}/h1`, undefined, {}, 1);
    expect(asV2.body.spec).to.deep.include({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] });
    const v2 = await call('POST', base.replace('%s', 'v2'), { metadata: { name: 'h2' }, spec: { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'd' },
      metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] } });
    expect(v2.status).to.equal(201);
    const seenV1 = await call<Obj & { metadata: { annotations?: Record<string, string> } }>('GET', `${base.replace('%s', 'v1')}/h2`);
    expect(seenV1.body.metadata.annotations).to.deep.equal({ 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]' });
    // A v1 write of what it read keeps the v2-only metric.
    const put = await call('PUT', `${base.replace('%s', 'v1')}/h2`, { ...seenV1.body, spec: { ...seenV1.body.spec, maxReplicas: 4 } });
    expect(put.status).to.equal(200);
    const again = await call('GET', `${base.replace('%s', 'v2')}/h2`);
    expect(again.body.spec).to.deep.include({ maxReplicas: 4, metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] });
  });

  it('ingresses: stored under /registry/ingress; a bad path type is upstream\'s 422', async () => {
    const fx = invalidFixture('ingress-bad-path-type');
    const res = await call(fx.request.method, fx.request.path.replace('/fixtures/', '/default/'), fx.request.body);
    expect(res.status).to.equal(422);
    expect((res.body as unknown as { message: string }).message).to.equal((fx.response as { message: string }).message);
    const ok = await call('POST', '/apis/networking.k8s.io/v1/namespaces/default/ingresses', { metadata: { name: 'ing' },
      spec: { rules: [{ host: 'a.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] } }] } });
    expect([ok.status, ok.body.status, ok.body.metadata.generation]).to.deep.equal([201, { loadBalancer: {} }, 1]);
    const etcd = await testEtcdClient();
    try {
      expect(await etcd.get(`${cluster.etcdPrefix}/ingress/default/ing`).string()).to.be.a('string');
    } finally { etcd.close(); }
  });
});
