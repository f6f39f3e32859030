// kubectl v1.28 and PodSecurity: labeling a namespace sets its policy, and kubectl shows
// what the server says: refusals as "Error from server (Forbidden)", warnings on stderr
// as "Warning: ..." lines (for new pods and for pods already in a relabeled namespace).
import { expect } from 'chai';
import { kubectl, startReplicas, until, type Cluster, type KubectlResult } from '../harness/index.js';

describe('e2e: kubectl and PodSecurity', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `e2e-psa-${Date.now().toString(36)}`;
  const k = (args: string[], replica = 0): Promise<KubectlResult> => kubectl(['-n', ns, ...args], { kubeconfig: cluster.kubeconfigFor(replica) });

  before(async () => {
    cluster = await startReplicas(2);
  });
  after(async () => { await cluster?.stop(); });

  it('enforces baseline once the namespace is labeled, and warns about restricted', async () => {
    expect((await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0) })).code).to.equal(0);
    const before = await k(['run', 'early', '--image=nginx', '--privileged']);
    expect(before.code, before.stderr).to.equal(0);
    expect(before.stderr).to.equal('');

    // PodSecurity reads pods and namespaces from the replica's watch-fed caches (as upstream's
    // listers): server-side dry runs tell when replica 0's holds the pod just created, and
    // later when replica 1's holds the new labels. At CI's load that can take longer than
    // one kubectl run.
    const label = ['label', 'ns', ns, 'pod-security.kubernetes.io/enforce=baseline', 'pod-security.kubernetes.io/warn=restricted'];
    await until('replica 0\'s pod cache holds early', async () =>
      (await kubectl([...label, '--dry-run=server'], { kubeconfig: cluster.kubeconfigFor(0) })).stderr.includes('Warning: early: privileged'), 30_000, 200);
    const labeled = await kubectl(label, { kubeconfig: cluster.kubeconfigFor(0) });
    expect(labeled.code, labeled.stderr).to.equal(0);
    expect(labeled.stdout.trim()).to.equal(`namespace/${ns} labeled`);
    expect(labeled.stderr.trim().split('\n')).to.deep.equal([
      `Warning: existing pods in namespace "${ns}" violate the new PodSecurity enforce level "baseline:latest"`,
      'Warning: early: privileged',
    ]);

    for (const replica of [1, 0]) {
      await until(`replica ${replica}'s namespace cache has the labels`, async () =>
        (await k(['run', 'p', '--image=nginx', '--privileged', '--dry-run=server'], replica)).code !== 0, 30_000, 200);
    }
    const refused = await k(['run', 'p', '--image=nginx', '--privileged'], 1);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr.trim()).to.equal(
      'Error from server (Forbidden): pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "p" must not set securityContext.privileged=true)');

    const warned = await k(['run', 'q', '--image=nginx']);
    expect(warned.code, warned.stderr).to.equal(0);
    expect(warned.stdout.trim()).to.equal('pod/q created');
    expect(warned.stderr.trim()).to.equal('Warning: would violate PodSecurity "restricted:latest": '
      + 'allowPrivilegeEscalation != false (container "q" must set securityContext.allowPrivilegeEscalation=false), '
      + 'unrestricted capabilities (container "q" must set securityContext.capabilities.drop=["ALL"]), '
      + 'runAsNonRoot != true (pod or container "q" must set securityContext.runAsNonRoot=true), '
      + 'seccompProfile (pod or container "q" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
  });

  it('refuses an invalid level label', async () => {
    const r = await kubectl(['label', 'ns', ns, '--overwrite', 'pod-security.kubernetes.io/enforce=strict'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(r.code).to.not.equal(0);
    expect(r.stderr.trim()).to.equal(`The Namespace "${ns}" is invalid: `
      + 'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });
});
