// kubectl v1.28 delete namespace with objects inside: everything in it goes, then the
// namespace; kubectl waits for that and reports it.
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl delete namespace', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `e2e-ns-${Date.now().toString(36)}`;
  const k = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin });

  before(async () => {
    cluster = await startReplicas(2, { etcd: 'mutual-tls' });
  });
  after(async () => { await cluster?.stop(); });

  it('deletes a namespace with objects of several resources inside', async () => {
    expect((await k(['create', 'namespace', ns])).code).to.equal(0);
    for (const args of [
      ['create', 'configmap', 'cm1', '--from-literal=a=b'],
      ['create', 'configmap', 'cm2'],
      ['create', 'secret', 'generic', 's1', '--from-literal=a=b'],
      ['create', 'serviceaccount', 'robot'],
      ['create', 'role', 'reader', '--verb=get', '--resource=configmaps'],
      ['create', 'rolebinding', 'read', '--role=reader', '--user=alice'],
    ]) {
      const r = await k([...args, '-n', ns]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
    }
    const r = await k(['delete', 'namespace', ns], undefined);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal(`namespace "${ns}" deleted`);
    const gone = await kubectl(['get', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(gone.code).to.not.equal(0);
    expect(gone.stderr.trim()).to.equal(`Error from server (NotFound): namespaces "${ns}" not found`);
    for (const resource of ['configmaps', 'secrets', 'serviceaccounts', 'roles', 'rolebindings']) {
      const list = await k(['get', resource, '-n', ns, '-o', 'name']);
      expect(list.stdout.trim(), resource).to.equal('');
    }
  });

  it('refuses to delete kube-system', async () => {
    const r = await k(['delete', 'namespace', 'kube-system']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr.trim()).to.equal('Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted');
  });
});
