// ResourceQuota (SPEC 4.11): the controller fills status.hard/used from the objects,
// admission refuses what would exceed a quota with upstream's messages, charges what
// it admits before the write (so two replicas never both take the last unit), leaves
// dry runs uncharged, and deletions give usage back.
import { expect } from 'chai';
import { quietPeriodMs } from '../../pkg/controller/resourcequota/index.js';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Status { code: number; reason: string; message: string; details?: { name?: string; kind?: string } }
interface Quota { metadata: { name: string }; status?: { hard?: Record<string, string>; used?: Record<string, string> } }

describe('ResourceQuota admission and controller', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const suffix = Date.now().toString(36);
  const call = <T>(method: string, path: string, body?: unknown, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, timeoutMs: 30_000 });

  const eventually = async <T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const makeNamespace = async (name: string) => {
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name } })).status).to.equal(201);
  };

  /** Creates a quota and waits until the controller has measured every hard resource. */
  const makeQuota = async (ns: string, name: string, spec: Record<string, unknown>): Promise<Record<string, string>> => {
    const res = await call('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { metadata: { name }, spec });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return usedOf(ns, name, (u, q) => Object.keys(q.status?.hard ?? {}).length > 0 && Object.keys(q.status!.hard!).every((k) => k in u));
  };

  const usedOf = async (ns: string, name: string, until: (used: Record<string, string>, q: Quota) => boolean = () => true) =>
    eventually(async () => {
      const q = (await call<Quota>('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`)).body;
      const used = q.status?.used;
      return used && until(used, q) ? used : undefined;
    }, `quota ${ns}/${name} status`);

  const pod = (name: string, requests?: Record<string, string>, spec: Record<string, unknown> = {}) => ({
    metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox', resources: requests ? { requests, limits: requests } : {} }], ...spec },
  });

  before(async () => {
    cluster = await startReplicas(2);
  });
  after(async () => { await cluster?.stop(); });

  it('computes status, refuses pods past the quota or without requests, with upstream messages', async () => {
    const ns = `rq-pods-${suffix}`;
    await makeNamespace(ns);
    const used = await makeQuota(ns, 'compute', { hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi' } });
    expect(used).to.deep.equal({ 'limits.memory': '0', pods: '0', 'requests.cpu': '0' });
    const q = (await call<Quota>('GET', `/api/v1/namespaces/${ns}/resourcequotas/compute`)).body;
    expect(q.status!.hard).to.deep.equal({ 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '1' });

    const bare = await call<Status>('POST', `/api/v1/namespaces/${ns}/pods`, pod('bare'));
    expect(bare.status).to.equal(403);
    expect(bare.body).to.include({ reason: 'Forbidden', code: 403 });
    expect(bare.body.message).to.equal('pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.cpu for: app');

    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, pod('one', { cpu: '600m', memory: '512Mi' }))).status).to.equal(201);
    const over = await call<Status>('POST', `/api/v1/namespaces/${ns}/pods`, pod('two', { cpu: '500m', memory: '256Mi' }), 1);
    expect(over.status).to.equal(403);
    expect(over.body.message).to.equal('pods "two" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
    expect(await usedOf(ns, 'compute')).to.deep.equal({ 'limits.memory': '512Mi', pods: '1', 'requests.cpu': '600m' });

    // Deleting the pod gives its usage back (the controller recounts).
    expect((await call('DELETE', `/api/v1/namespaces/${ns}/pods/one?gracePeriodSeconds=0`)).status).to.equal(200);
    expect(await usedOf(ns, 'compute', (u) => u.pods === '0')).to.deep.equal({ 'limits.memory': '0', pods: '0', 'requests.cpu': '0' });
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, pod('two', { cpu: '500m', memory: '256Mi' }), 1)).status).to.equal(201);
  });

  it('gives back a pod\'s usage once it ends (an update that changes its usage), long before the resync', async () => {
    const ns = `rq-ended-${suffix}`;
    await makeNamespace(ns);
    await makeQuota(ns, 'compute', { hard: { pods: '2', 'requests.cpu': '1' } });
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, pod('job', { cpu: '400m' }))).status).to.equal(201);
    expect(await usedOf(ns, 'compute', (u) => u.pods === '1')).to.deep.equal({ pods: '1', 'requests.cpu': '400m' });
    // Past the recount the create's charge scheduled: only the update can bring the next one.
    await new Promise((r) => setTimeout(r, quietPeriodMs + 1500));
    const done = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/pods/job/status`, {
      ...cluster.credentialsFor(), method: 'PATCH', body: { status: { phase: 'Succeeded' } },
      headers: { 'Content-Type': 'application/merge-patch+json' }, timeoutMs: 30_000,
    });
    expect(done.status, JSON.stringify(done.body)).to.equal(200);
    // A terminal pod is not charged; the recount follows the update after the quiet period, not the 5-minute resync.
    expect(await usedOf(ns, 'compute', (u) => u.pods === '0')).to.deep.equal({ pods: '0', 'requests.cpu': '0' });
  });

  it('applies scoped quotas only to pods in scope (BestEffort, PriorityClass selector)', async () => {
    const ns = `rq-scope-${suffix}`;
    await makeNamespace(ns);
    await makeQuota(ns, 'besteffort', { hard: { pods: '1' }, scopes: ['BestEffort'] });
    await makeQuota(ns, 'no-high', { hard: { pods: '0' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, pod('be1'))).status).to.equal(201);
    const be2 = await call<Status>('POST', `/api/v1/namespaces/${ns}/pods`, pod('be2'));
    expect(be2.status).to.equal(403);
    expect(be2.body.message).to.equal('pods "be2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1');
    // A pod with requests is not BestEffort, and the PriorityClass quota does not select it.
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, pod('burst', { cpu: '100m' }))).status).to.equal(201);
    expect(await usedOf(ns, 'besteffort')).to.deep.equal({ pods: '1' });
  });

  it('enforces count/<resource>.<group> quotas and does not charge dry runs', async () => {
    const ns = `rq-count-${suffix}`;
    await makeNamespace(ns);
    await makeQuota(ns, 'objects', { hard: { 'count/secrets': '1', 'count/deployments.apps': '0', services: '5' } });
    const dry = await call('POST', `/api/v1/namespaces/${ns}/secrets?dryRun=All`, { metadata: { name: 'dry' } });
    expect(dry.status).to.equal(201);
    expect((await usedOf(ns, 'objects'))['count/secrets']).to.equal('0');
    expect((await call('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's1' } })).status).to.equal(201);
    const s2 = await call<Status>('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's2' } }, 1);
    expect(s2.status).to.equal(403);
    expect(s2.body.message).to.equal('secrets "s2" is forbidden: exceeded quota: objects, requested: count/secrets=1, used: count/secrets=1, limited: count/secrets=1');
    // A dry run is still checked.
    const dryOver = await call<Status>('POST', `/api/v1/namespaces/${ns}/secrets?dryRun=All`, { metadata: { name: 's3' } });
    expect(dryOver.status).to.equal(403);
    const deploy = await call<Status>('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    });
    expect(deploy.status).to.equal(403);
    expect(deploy.body.message).to.equal('deployments.apps "web" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0');
    expect(await usedOf(ns, 'objects')).to.deep.equal({ 'count/deployments.apps': '0', 'count/secrets': '1', services: '0' });
  });

  it('charges services by type and claims by storage class', async () => {
    const ns = `rq-svc-${suffix}`;
    await makeNamespace(ns);
    await makeQuota(ns, 'net', { hard: { 'services.nodeports': '1', 'services.loadbalancers': '0' } });
    await makeQuota(ns, 'disk', { hard: { 'gold.storageclass.storage.k8s.io/requests.storage': '1Gi', persistentvolumeclaims: '5' } });
    const svc = (name: string, type: string) => ({ metadata: { name }, spec: { type, ports: [{ port: 80 }], selector: { app: name } } });
    expect((await call('POST', `/api/v1/namespaces/${ns}/services`, svc('np1', 'NodePort'))).status).to.equal(201);
    const np2 = await call<Status>('POST', `/api/v1/namespaces/${ns}/services`, svc('np2', 'NodePort'), 1);
    expect(np2.status).to.equal(403);
    expect(np2.body.message).to.equal('services "np2" is forbidden: exceeded quota: net, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1');
    const lb = await call<Status>('POST', `/api/v1/namespaces/${ns}/services`, svc('lb', 'LoadBalancer'));
    expect(lb.body.message).to.equal('services "lb" is forbidden: exceeded quota: net, requested: services.loadbalancers=1,services.nodeports=1, '
      + 'used: services.loadbalancers=0,services.nodeports=1, limited: services.loadbalancers=0,services.nodeports=1');
    const claim = (name: string, storageClassName: string, storage: string) => ({
      metadata: { name }, spec: { storageClassName, accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    });
    expect((await call('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, claim('g1', 'gold', '768Mi'))).status).to.equal(201);
    expect((await call('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, claim('s1', 'silver', '10Gi'))).status).to.equal(201);
    const g2 = await call<Status>('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, claim('g2', 'gold', '512Mi'), 1);
    expect(g2.status).to.equal(403);
    expect(g2.body.message).to.equal('persistentvolumeclaims "g2" is forbidden: exceeded quota: disk, requested: gold.storageclass.storage.k8s.io/requests.storage=512Mi, '
      + 'used: gold.storageclass.storage.k8s.io/requests.storage=768Mi, limited: gold.storageclass.storage.k8s.io/requests.storage=1Gi');
    expect(await usedOf(ns, 'disk')).to.deep.equal({ 'gold.storageclass.storage.k8s.io/requests.storage': '768Mi', persistentvolumeclaims: '2' });
  });

  it('gives back a charge for a request refused after quota admitted it', async () => {
    const ns = `rq-reconcile-${suffix}`;
    await makeNamespace(ns);
    await makeQuota(ns, 'secrets', { hard: { secrets: '5' } });
    expect((await call('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'dup' } })).status).to.equal(201);
    // The second create passes quota (and is charged) and then fails in storage.
    expect((await call('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'dup' } }, 1)).status).to.equal(409);
    expect((await usedOf(ns, 'secrets')).secrets).to.equal('2');
    expect((await usedOf(ns, 'secrets', (u) => u.secrets === '1')).secrets).to.equal('1');
  });

  it('two replicas admitting 200 concurrent creates never pass the limit', async () => {
    const ns = `rq-race-${suffix}`;
    await makeNamespace(ns);
    // The root CA publisher's ConfigMap counts too; let it land before the quota is measured.
    await eventually(async () => ((await call('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status === 200 ? true : undefined), 'kube-root-ca.crt');
    const limit = 100;
    const before = Number((await makeQuota(ns, 'cms', { hard: { 'count/configmaps': String(limit) } }))['count/configmaps']);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      call<Status>('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { i: String(i) } }, i % 2)));
    const created = results.filter((r) => r.status === 201).length;
    const refused = results.filter((r) => r.status !== 201);
    expect(created).to.equal(limit - before);
    expect(refused.map((r) => r.status)).to.deep.equal(refused.map(() => 403));
    for (const r of refused) expect(r.body.message).to.match(/^configmaps "cm-\d+" is forbidden: exceeded quota: cms, requested: count\/configmaps=1, used: count\/configmaps=100, limited: count\/configmaps=100$/);
    const list = await call<{ items: unknown[] }>('GET', `/api/v1/namespaces/${ns}/configmaps`);
    expect(list.body.items).to.have.length(limit);
    expect((await usedOf(ns, 'cms'))['count/configmaps']).to.equal(String(limit));
  });
});
