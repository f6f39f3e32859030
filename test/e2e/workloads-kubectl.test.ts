// kubectl v1.28 against the workload resources: create deployment/job/cronjob/pdb, run,
// scale, set image, rollout history/undo/pause/resume, get all, get pods -o wide with a
// field selector, describe. No controller manager creates ReplicaSets here: the test
// writes them itself (with the owner reference and revision annotation a controller
// would set), which is what rollout history and undo read.
import { expect } from 'chai';
import { kubectl, kubectlOn, startReplicas, type Cluster } from '../harness/index.js';

interface Meta { name: string; uid: string; generation?: number; annotations?: Record<string, string> }
interface Deployment { metadata: Meta; spec: { replicas: number; paused?: boolean; selector: unknown; template: { metadata: { labels: Record<string, string> }; spec: { containers: Array<{ name: string; image: string }> } } } }

describe('e2e: kubectl and workloads', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `e2e-wl-${Date.now().toString(36)}`;
  const { k, ok } = kubectlOn(() => cluster, ns);
  const deployment = async (): Promise<Deployment> => JSON.parse(await ok(['get', 'deployment', 'web', '-o', 'json'])) as Deployment;

  /** A ReplicaSet as the deployment controller would write it for the current template. */
  const replicaSetFor = (d: Deployment, revision: number, hash: string): string => JSON.stringify({
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name: `web-${hash}`, labels: { ...d.spec.template.metadata.labels, 'pod-template-hash': hash },
      annotations: { 'deployment.kubernetes.io/revision': String(revision) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: 0,
      selector: { matchLabels: { ...d.spec.template.metadata.labels, 'pod-template-hash': hash } },
      template: { ...d.spec.template, metadata: { ...d.spec.template.metadata, labels: { ...d.spec.template.metadata.labels, 'pod-template-hash': hash } } },
    },
  });

  before(async () => {
    cluster = await startReplicas(2);
    const r = await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
  });
  after(async () => { await cluster?.stop(); });

  it('creates a deployment, a job, a cronjob, a pdb and runs a pod', async () => {
    expect(await ok(['create', 'deployment', 'web', '--image=nginx:1.25'])).to.equal('deployment.apps/web created\n');
    expect(await ok(['create', 'job', 'j', '--image=busybox', '--', 'echo', 'hi'])).to.equal('job.batch/j created\n');
    expect(await ok(['create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date'])).to.equal('cronjob.batch/cj created\n');
    expect(await ok(['create', 'pdb', 'web-pdb', '--selector=app=web', '--min-available=1'])).to.equal('poddisruptionbudget.policy/web-pdb created\n');
    expect(await ok(['run', 'pod1', '--image=nginx', '--labels=app=solo'], undefined, 1)).to.equal('pod/pod1 created\n');
    const d = await deployment();
    expect(d.spec.replicas).to.equal(1);
    expect(d.metadata.generation).to.equal(1);
    const job = JSON.parse(await ok(['get', 'job', 'j', '-o', 'json'])) as { metadata: Meta; spec: { selector: { matchLabels: Record<string, string> } } };
    expect(job.spec.selector.matchLabels).to.deep.equal({ 'batch.kubernetes.io/controller-uid': job.metadata.uid });
    const bad = await k(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=not a schedule']);
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.contain('spec.schedule: Invalid value: "not a schedule": expected exactly 5 fields, found 3: [not a schedule]');
  });

  it('scales through the scale subresource and sets the image', async () => {
    expect(await ok(['scale', 'deployment', 'web', '--replicas=3'], undefined, 1)).to.equal('deployment.apps/web scaled\n');
    expect((await deployment()).spec.replicas).to.equal(3);
    const scale = JSON.parse(await ok(['get', '--raw', `/apis/apps/v1/namespaces/${ns}/deployments/web/scale`])) as { kind: string; status: { selector: string } };
    expect(scale.kind).to.equal('Scale');
    expect(scale.status.selector).to.equal('app=web');
  });

  it('rollout history, set image, undo, pause and resume', async () => {
    let d = await deployment();
    await ok(['create', '-f', '-'], replicaSetFor(d, 1, 'aaa111'));
    expect(await ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.26'])).to.equal('deployment.apps/web image updated\n');
    d = await deployment();
    expect(d.spec.template.spec.containers[0]!.image).to.equal('nginx:1.26');
    await ok(['create', '-f', '-'], replicaSetFor(d, 2, 'bbb222'));
    // The deployment controller records the current revision on the Deployment; undo's
    // JSON patch replaces /metadata/annotations, which must exist.
    await ok(['annotate', 'deployment', 'web', 'deployment.kubernetes.io/revision=2']);
    const history = await ok(['rollout', 'history', 'deployment/web']);
    expect(history.split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split(/\s+/)[0])).to.deep.equal(['1', '2']);
    const rev1 = await ok(['rollout', 'history', 'deployment/web', '--revision=1']);
    expect(rev1).to.contain('nginx:1.25');

    expect(await ok(['rollout', 'pause', 'deployment/web'])).to.equal('deployment.apps/web paused\n');
    expect((await deployment()).spec.paused).to.equal(true);
    const refused = await k(['rollout', 'undo', 'deployment/web']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.contain('you cannot rollback a paused deployment; resume it first with \'kubectl rollout resume\' and try again');
    expect(await ok(['rollout', 'resume', 'deployment/web'])).to.equal('deployment.apps/web resumed\n');

    expect(await ok(['rollout', 'undo', 'deployment/web'], undefined, 1)).to.equal('deployment.apps/web rolled back\n');
    d = await deployment();
    expect(d.spec.template.spec.containers[0]!.image).to.equal('nginx:1.25');
    expect(d.spec.template.metadata.labels).to.deep.equal({ app: 'web' });
  });

  it('get all lists the workloads; get pods -o wide selects by field', async () => {
    const all = await ok(['get', 'all']);
    for (const name of ['pod/pod1', 'deployment.apps/web', 'replicaset.apps/web-aaa111', 'job.batch/j', 'cronjob.batch/cj']) {
      expect(all).to.contain(name);
    }
    const wide = await ok(['get', 'pods', '-o', 'wide', '--field-selector', 'status.phase=Pending,spec.restartPolicy=Always']);
    const [header, ...rows] = wide.trim().split('\n');
    expect(header!.split(/\s{2,}/)).to.deep.equal(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(rows.map((r) => r.split(/\s+/)[0])).to.deep.equal(['pod1']);
    const none = await k(['get', 'pods', '--field-selector', 'spec.nodeName=elsewhere']);
    expect(none.stderr).to.contain('No resources found');
    const badField = await k(['get', 'pods', '--field-selector', 'spec.unknown=x']);
    expect(badField.code).to.not.equal(0);
    expect(badField.stderr).to.contain('field label not supported: spec.unknown');
  });

  it('expose makes services for the deployment and the pod, with allocated cluster IPs and node ports', async () => {
    await ok(['expose', 'deployment', 'web', '--port=80', '--target-port=8080']);
    await ok(['expose', 'pod', 'pod1', '--name=pod1-np', '--type=NodePort', '--port=81']);
    interface Svc { spec: { type: string; clusterIP: string; selector: Record<string, string>; ports: Array<{ port: number; targetPort: number; nodePort?: number }> } }
    const web = JSON.parse(await ok(['get', 'service', 'web', '-o', 'json'])) as Svc;
    const d = await deployment();
    expect(web.spec.selector).to.deep.equal((d.spec.selector as { matchLabels: Record<string, string> }).matchLabels);
    expect(web.spec.type).to.equal('ClusterIP');
    expect(web.spec.clusterIP).to.match(/^10\.0\.0\.\d+$/);
    expect(web.spec.ports.map((p) => [p.port, p.targetPort])).to.deep.equal([[80, 8080]]);
    const np = JSON.parse(await ok(['get', 'service', 'pod1-np', '-o', 'json'])) as Svc;
    expect(np.spec.type).to.equal('NodePort');
    expect(np.spec.clusterIP).to.match(/^10\.0\.0\.\d+$/);
    expect(np.spec.clusterIP).to.not.equal(web.spec.clusterIP);
    expect(np.spec.ports[0].nodePort).to.be.within(30000, 32767);
    const table = await ok(['get', 'service', 'pod1-np']);
    expect(table).to.match(new RegExp(`pod1-np\\s+NodePort\\s+${np.spec.clusterIP.replace(/\./g, '\\.')}\\s+<none>\\s+81:${np.spec.ports[0].nodePort}/TCP`));
  });

  it('describes a deployment and a pod', async () => {
    const d = await ok(['describe', 'deployment', 'web']);
    expect(d).to.match(/^Name:\s+web$/m);
    expect(d).to.match(/^Replicas:\s+3 desired/m);
    expect(d).to.match(/^StrategyType:\s+RollingUpdate$/m);
    const p = await ok(['describe', 'pod', 'pod1']);
    expect(p).to.match(/^Status:\s+Pending$/m);
    expect(p).to.match(/^QoS Class:\s+BestEffort$/m);
  });
});
