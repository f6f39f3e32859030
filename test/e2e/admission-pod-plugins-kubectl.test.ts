// kubectl v1.28 against the default-on pod admission plugins: a LimitRange's defaults on a
// `kubectl run` pod and its refusal of an oversized one, the ServiceAccount token volume,
// a PriorityClass resolved into the pod's priority, and upstream's refusals as kubectl
// prints them.
import { expect } from 'chai';
import { kubectl, kubectlOn, startReplicas, until, type Cluster } from '../harness/index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('e2e: kubectl and the pod admission plugins (LimitRanger, ServiceAccount, Priority)', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `e2e-admpod-${Date.now().toString(36)}`;
  const { k, ok } = kubectlOn(() => cluster, ns);
  const getPod = async (name: string, replica = 0): Promise<Obj> => JSON.parse(await ok(['get', 'pod', name, '-o', 'json'], undefined, replica)) as Obj;

  before(async () => {
    cluster = await startReplicas(2);
    const r = await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
  });
  after(async () => { await cluster?.stop(); });

  it('a pod run by kubectl gets the default account\'s token volume, priority and tolerations', async () => {
    expect(await ok(['run', 'plain', '--image=nginx'], undefined, 1)).to.equal('pod/plain created\n');
    const p = await getPod('plain');
    expect(p.spec.serviceAccountName).to.equal('default');
    const vol = p.spec.volumes.find((v: Obj) => /^kube-api-access-[a-z0-9]{5}$/.test(v.name));
    expect(vol, JSON.stringify(p.spec.volumes)).to.not.equal(undefined);
    expect(vol.projected.sources.map((s: Obj) => Object.keys(s)[0])).to.deep.equal(['serviceAccountToken', 'configMap', 'downwardAPI']);
    expect(p.spec.containers[0].volumeMounts).to.deep.equal([{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: vol.name, readOnly: true }]);
    expect(p.spec).to.include({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(p.spec.tolerations.map((t: Obj) => `${t.key}:${t.effect}:${t.tolerationSeconds}`))
      .to.deep.equal(['node.kubernetes.io/not-ready:NoExecute:300', 'node.kubernetes.io/unreachable:NoExecute:300']);
    const r = await k(['run', 'ghost', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"ghost"}}']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(`Error from server (Forbidden): pods "ghost" is forbidden: error looking up service account ${ns}/ghost: serviceaccount "ghost" not found`);
  });

  it('kubectl create of a LimitRange defaults the resources of the next pod and refuses one over max', async () => {
    const lr = {
      apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' }, default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m' } }] },
    };
    expect(await ok(['create', '-f', '-'], JSON.stringify(lr))).to.equal('limitrange/limits created\n');
    // Both replicas already found no LimitRange in this namespace and, as upstream, trust
    // that until their etcd-fed caches hold one: server-side dry runs tell when replica 1's does.
    await until('the LimitRange in replica 1\'s cache', async () => {
      const dry = await k(['run', 'sized', '--image=nginx', '--dry-run=server', '-o', 'json'], undefined, 1);
      return dry.code === 0 && (JSON.parse(dry.stdout) as Obj).spec.containers[0].resources?.limits !== undefined;
    }, 30_000, 200);
    expect(await ok(['run', 'sized', '--image=nginx'], undefined, 1)).to.equal('pod/sized created\n');
    const p = await getPod('sized');
    expect(p.spec.containers[0].resources).to.deep.equal({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(p.metadata.annotations['kubernetes.io/limit-ranger']).to.equal('LimitRanger plugin set: cpu, memory request for container sized; cpu, memory limit for container sized');
    expect(p.status.qosClass).to.equal('Burstable');
    const big = await k(['run', 'big', '--image=nginx', '--overrides={"spec":{"containers":[{"name":"big","image":"nginx","resources":{"limits":{"cpu":"2"}}}]}}'], undefined, 1);
    expect(big.code).to.not.equal(0);
    expect(big.stderr).to.contain('Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    expect(await ok(['delete', 'limitrange', 'limits'])).to.equal('limitrange "limits" deleted\n');
  });

  it('kubectl create priorityclass, then a pod naming it gets its value', async () => {
    const pcName = `${ns}-high`;
    expect(await ok(['create', 'priorityclass', pcName, '--value=1000', '--preemption-policy=Never'])).to.equal(`priorityclass.scheduling.k8s.io/${pcName} created\n`);
    expect(await ok(['run', 'important', '--image=nginx', `--overrides={"spec":{"priorityClassName":"${pcName}"}}`], undefined, 1)).to.equal('pod/important created\n');
    const p = await getPod('important', 1);
    expect(p.spec).to.include({ priorityClassName: pcName, priority: 1000, preemptionPolicy: 'Never' });
    const r = await k(['run', 'nope', '--image=nginx', '--overrides={"spec":{"priorityClassName":"nope"}}']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('Error from server (Forbidden): pods "nope" is forbidden: no PriorityClass with name nope was found');
    expect(await ok(['get', 'pod', 'important', '-o', 'jsonpath={.spec.priority}'])).to.equal('1000');
  });
});
