// Two real replicas on one etcd, driven by the real kubectl v1.28.
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e smoke: two replicas and kubectl', function () {
  this.timeout(120_000);
  let cluster: Cluster | undefined;

  before(async () => {
    cluster = await startReplicas(2, { etcd: 'mutual-tls' });
  });

  after(async () => {
    await cluster?.stop();
  });

  for (const replica of [0, 1]) {
    it(`kubectl version reports a v1.28 server (replica ${replica})`, async () => {
      const r = await kubectl(['version', '-o', 'json'], { kubeconfig: cluster!.kubeconfigFor(replica) });
      expect(r.code, r.stderr).to.equal(0);
      const v = JSON.parse(r.stdout) as { serverVersion?: { major?: string; minor?: string; gitVersion?: string } };
      expect(v.serverVersion?.major).to.equal('1');
      expect(v.serverVersion?.minor).to.match(/^28\+?$/);
      expect(v.serverVersion?.gitVersion).to.match(/^v1\.28\.\d+/);
    });

    it(`kubectl get ns lists default as Active (replica ${replica})`, async () => {
      const r = await kubectl(['get', 'ns'], { kubeconfig: cluster!.kubeconfigFor(replica) });
      expect(r.code, r.stderr).to.equal(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).to.match(/^NAME\s+STATUS\s+AGE$/);
      expect(lines.some((l) => /^default\s+Active\s+\S+$/.test(l)), r.stdout).to.equal(true);
    });
  }

  it('an object created through one replica is read through the other', async () => {
    const name = `smoke-${Date.now().toString(36)}`;
    const created = await kubectl(['create', 'namespace', name], { kubeconfig: cluster!.kubeconfigFor(0) });
    expect(created.code, created.stderr).to.equal(0);
    expect(created.stdout.trim()).to.equal(`namespace/${name} created`);
    const got = await kubectl(['get', 'namespace', name, '-o', 'jsonpath={.metadata.name} {.status.phase}'], { kubeconfig: cluster!.kubeconfigFor(1) });
    expect(got.code, got.stderr).to.equal(0);
    expect(got.stdout).to.equal(`${name} Active`);
  });
});
