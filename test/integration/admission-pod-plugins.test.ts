// The default-on pod admission plugins through real replicas: ServiceAccount (default
// account, token volume, pull secrets, missing accounts, mountable secrets), LimitRanger
// (defaults and bounds, objects written on the other replica), Priority, DefaultToleration-
// Seconds (with its flag), TaintNodesByCondition and RuntimeClass, with upstream's 403s.
import { expect } from 'chai';
import { request, startReplicas, until, type Cluster, type HttpResponse } from '../harness/index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Status { code: number; reason: string; message: string }

const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('pod admission plugins (LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds, TaintNodesByCondition, RuntimeClass)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `admpod-${Date.now().toString(36)}`;
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const call = <T = Obj>(method: string, path: string, body?: unknown, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body });
  const created = async (path: string, body: unknown, replica = 0): Promise<Obj> => {
    const r = await call('POST', path, body, replica);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body;
  };
  const forbidden = async (path: string, body: unknown, message: string, replica = 0): Promise<void> => {
    const r = await call<Status>('POST', path, body, replica);
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body).to.include({ code: 403, reason: 'Forbidden', message });
  };
  const pod = (name: string, spec: Obj = {}): Obj => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
  /**
   * Waits until a dry-run create of `body` on `replica` is admitted as `admitted` says: an
   * object written on the other replica reaches this one's admission cache through its
   * etcd watch, which at CI's load can take longer than any fixed pause.
   */
  const admittedOnceSeen = (what: string, body: Obj, replica: number, admitted: (p: Obj) => boolean): Promise<true> =>
    until(what, async () => {
      const r = await call('POST', `${pods}?dryRun=All`, body, replica);
      return r.status === 201 && admitted(r.body);
    }, 20_000, 100);

  before(async () => {
    cluster = await startReplicas(2, { extraArgs: ['--default-not-ready-toleration-seconds=60'] });
    await created('/api/v1/namespaces', { metadata: { name: ns } });
  });
  after(async () => { await cluster?.stop(); });

  it('gives a pod the default account, the kube-api-access volume in every container, priority 0 and default tolerations', async () => {
    // Created right after its namespace: the plugin waits for the controller's `default` account.
    const p = await created(pods, pod('p1', { initContainers: [{ name: 'i', image: 'busybox' }] }), 1);
    expect(p.spec.serviceAccountName).to.equal('default');
    expect(p.spec.serviceAccount).to.equal('default');
    const vol = p.spec.volumes.find((v: Obj) => v.name.startsWith('kube-api-access-'));
    expect(vol.name).to.match(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(vol.projected).to.deep.equal({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    for (const c of [...p.spec.containers, ...p.spec.initContainers]) {
      expect(c.volumeMounts).to.deep.equal([{ name: vol.name, readOnly: true, mountPath: tokenPath }]);
    }
    expect(p.spec).to.include({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(p.spec.tolerations).to.deep.equal([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    // What admission added is stored, not just answered.
    const got = await call('GET', `${pods}/p1`, undefined, 0);
    expect(got.body.spec.volumes).to.deep.equal(p.spec.volumes);
  });

  it('refuses a missing account; honours automountServiceAccountToken, imagePullSecrets and enforce-mountable-secrets', async () => {
    await forbidden(pods, pod('p2', { serviceAccountName: 'ghost' }),
      `pods "p2" is forbidden: error looking up service account ${ns}/ghost: serviceaccount "ghost" not found`, 1);
    await created(`/api/v1/namespaces/${ns}/serviceaccounts`, {
      metadata: { name: 'quiet' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'regcred' }],
    });
    const quiet = await created(pods, pod('p3', { serviceAccountName: 'quiet' }), 1);
    expect(quiet.spec.volumes).to.equal(undefined);
    expect(quiet.spec.containers[0].volumeMounts).to.equal(undefined);
    expect(quiet.spec.imagePullSecrets).to.deep.equal([{ name: 'regcred' }]);
    // The pod's own setting wins over the account's.
    const loud = await created(pods, pod('p4', { serviceAccountName: 'quiet', automountServiceAccountToken: true, imagePullSecrets: [{ name: 'mine' }] }));
    expect(loud.spec.volumes).to.have.length(1);
    expect(loud.spec.imagePullSecrets).to.deep.equal([{ name: 'mine' }]);

    await created(`/api/v1/namespaces/${ns}/serviceaccounts`, {
      metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'allowed' }],
    });
    await forbidden(pods, pod('p5', { serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName: 'other' } }] }),
      'pods "p5" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret', 1);
    await forbidden(pods, pod('p6', { serviceAccountName: 'strict', containers: [{ name: 'c', image: 'nginx', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] }] }),
      'pods "p6" is forbidden: container c with envVar E referencing secret.secretName="other" is not allowed because service account strict does not reference that secret');
    await created(pods, pod('p7', { serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] }), 1);
  });

  it('applies a LimitRange written on the other replica: defaults with the annotation, then min/max/ratio', async () => {
    await created(`/api/v1/namespaces/${ns}/limitranges`, { metadata: { name: 'lr' }, spec: { limits: [
      { type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m' }, default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '200m' }, maxLimitRequestRatio: { cpu: '4' } },
      { type: 'PersistentVolumeClaim', max: { storage: '2Gi' } },
    ] } }, 0);
    // Replica 1 found no LimitRange here for p1 and, as upstream, trusts that answer for 30s
    // unless its cache (fed by etcd's watch) has one: wait for the watch to bring it.
    await admittedOnceSeen('the LimitRange in replica 1\'s cache', pod('lr1'), 1, (p) => p.spec.containers[0].resources?.limits !== undefined);
    const p = await created(pods, pod('lr1'), 1);
    expect(p.spec.containers[0].resources).to.deep.equal({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    expect(p.metadata.annotations).to.deep.equal({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c' });
    expect(p.status.qosClass).to.equal('Burstable');
    const withRes = (name: string, resources: Obj) => pod(name, { containers: [{ name: 'c', image: 'nginx', resources }] });
    await forbidden(pods, withRes('lr2', { limits: { cpu: '2' } }),
      'pods "lr2" is forbidden: maximum cpu usage per Container is 1, but limit is 2', 1);
    await forbidden(pods, withRes('lr3', { requests: { cpu: '50m' }, limits: { cpu: '1500m', memory: '2Gi' } }),
      'pods "lr3" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 1500m, '
      + 'maximum memory usage per Container is 1Gi, but limit is 2Gi, cpu max limit to request ratio per Container is 4, but provided ratio is 30.000000]');
    await forbidden(`/api/v1/namespaces/${ns}/persistentvolumeclaims`,
      { metadata: { name: 'big' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } } },
      'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi');
  });

  it('resolves priorityClassName, refuses unknown classes, mismatched priorities and a second global default', async () => {
    await created('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: `${ns}-high` }, value: 1000, preemptionPolicy: 'Never' });
    const p = await created(pods, pod('pr1', { priorityClassName: `${ns}-high` }), 1);
    expect(p.spec).to.include({ priority: 1000, preemptionPolicy: 'Never' });
    const crit = await created(pods, pod('pr2', { priorityClassName: 'system-node-critical' }));
    expect(crit.spec).to.include({ priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' });
    await forbidden(pods, pod('pr3', { priorityClassName: 'nope' }), 'pods "pr3" is forbidden: no PriorityClass with name nope was found');
    await forbidden(pods, pod('pr4', { priorityClassName: `${ns}-high`, priority: 5 }),
      'pods "pr4" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
    await created('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: `${ns}-default` }, value: 7, globalDefault: true });
    await forbidden('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: `${ns}-default2` }, value: 8, globalDefault: true },
      `priorityclasses.scheduling.k8s.io "${ns}-default2" is forbidden: PriorityClass ${ns}-default is already marked as default. Only one default can exist`, 1);
    // Once the default is in replica 1's cache, a pod without a class gets it.
    await admittedOnceSeen('the default PriorityClass in replica 1\'s cache', pod('pr5'), 1, (p) => p.spec.priorityClassName !== undefined);
    const dflt = await created(pods, pod('pr5'), 1);
    expect(dflt.spec).to.include({ priorityClassName: `${ns}-default`, priority: 7, preemptionPolicy: 'PreemptLowerPriority' });
    expect((await call('DELETE', `/apis/scheduling.k8s.io/v1/priorityclasses/${ns}-default`)).status).to.equal(200);
  });

  it('taints new Nodes not-ready:NoSchedule unless they already are', async () => {
    const n = await created('/api/v1/nodes', { metadata: { name: `${ns}-n1` }, spec: { taints: [{ key: 'a', value: 'b', effect: 'NoExecute' }] } }, 1);
    expect(n.spec.taints).to.deep.equal([{ key: 'a', value: 'b', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    const n2 = await created('/api/v1/nodes', { metadata: { name: `${ns}-n2` }, spec: { taints: [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }] } });
    expect(n2.spec.taints).to.have.length(1);
  });

  it('fills overhead and scheduling from the RuntimeClass and refuses conflicts', async () => {
    await created('/apis/node.k8s.io/v1/runtimeclasses', {
      metadata: { name: `${ns}-rc` }, handler: 'runc', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    });
    const p = await created(pods, pod('rc1', { runtimeClassName: `${ns}-rc`, nodeSelector: { disk: 'ssd' } }), 1);
    expect(p.spec.overhead).to.deep.equal({ cpu: '250m', memory: '120Mi' });
    expect(p.spec.nodeSelector).to.deep.equal({ disk: 'ssd', sandbox: 'yes' });
    expect(p.spec.tolerations.map((t: Obj) => t.key)).to.deep.equal(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'sandbox']);
    await forbidden(pods, pod('rc2', { runtimeClassName: `${ns}-rc`, overhead: { cpu: '1' } }),
      'pods "rc2" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
    await forbidden(pods, pod('rc3', { runtimeClassName: `${ns}-rc`, nodeSelector: { sandbox: 'no' } }),
      'pods "rc3" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no');
    await forbidden(pods, pod('rc4', { runtimeClassName: 'missing' }), 'pods "rc4" is forbidden: pod rejected: RuntimeClass "missing" not found', 1);
    await forbidden(pods, pod('rc5', { overhead: { cpu: '1' } }),
      'pods "rc5" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  });
});
