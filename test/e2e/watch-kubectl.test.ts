// kubectl v1.28 against two replicas: `get -w` through one replica shows changes made
// through the other, and `--chunk-size=2` lists 25 objects completely.
import { expect } from 'chai';
import { kubectl, kubectlStream, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl watch and chunked lists across replicas', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `kw-${Date.now().toString(36)}`;

  before(async () => {
    cluster = await startReplicas(2, { etcd: 'mutual-tls' });
    const r = await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
  });
  after(async () => { await cluster?.stop(); });

  it('kubectl get cm -w on replica 1 shows a ConfigMap created and changed through replica 0', async () => {
    const w = kubectlStream(['get', 'cm', '-n', ns, '-w', '--output-watch-events'], { kubeconfig: cluster.kubeconfigFor(1) });
    const waitFor = (re: RegExp) => w.waitFor(re);
    try {
      // kube-root-ca.crt or nothing at first; kubectl prints the header once something shows.
      await new Promise((r) => setTimeout(r, 1500));
      const a = await kubectl(['create', 'configmap', 'watched', '-n', ns, '--from-literal=v=one'], { kubeconfig: cluster.kubeconfigFor(0) });
      expect(a.code, a.stderr).to.equal(0);
      await waitFor(/^ADDED\s+watched\s+1\s/m);
      const b = await kubectl(['patch', 'configmap', 'watched', '-n', ns, '-p', '{"data":{"w":"two"}}'], { kubeconfig: cluster.kubeconfigFor(0) });
      expect(b.code, b.stderr).to.equal(0);
      await waitFor(/^MODIFIED\s+watched\s+2\s/m);
      const c = await kubectl(['delete', 'configmap', 'watched', '-n', ns], { kubeconfig: cluster.kubeconfigFor(0) });
      expect(c.code, c.stderr).to.equal(0);
      await waitFor(/^DELETED\s+watched\s+2\s/m);
      expect(w.stdout().split('\n')[0]).to.match(/^EVENT\s+NAME\s+DATA\s+AGE$/);
      expect(w.stderr()).to.equal('');
    } finally {
      w.stop();
    }
  });

  it('kubectl get cm --chunk-size=2 lists 25 ConfigMaps completely', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `chunk-${String(i).padStart(2, '0')}`);
    const kubeconfig = cluster.kubeconfigFor(0);
    const yaml = names.map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\n  namespace: ${ns}\n`).join('---\n');
    const created = await kubectl(['apply', '-f', '-'], { kubeconfig, stdin: yaml });
    expect(created.code, created.stderr).to.equal(0);
    const r = await kubectl(['get', 'cm', '-n', ns, '--chunk-size=2', '-l', '!nothing', '-o', 'name', '-v=6'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(r.code, r.stderr).to.equal(0);
    const got = r.stdout.trim().split('\n').filter((l) => l.startsWith('configmap/chunk-'));
    expect(got).to.deep.equal(names.map((n) => `configmap/${n}`));
    // kubectl really paginated: 13 requests with limit=2, 12 of them with a continue token.
    const requests = r.stderr.split('\n').filter((l) => /GET https:\/\/\S+\/configmaps\?[^ ]*limit=2/.test(l));
    expect(requests.length).to.equal(13);
    expect(requests.filter((l) => /continue=/.test(l)).length).to.equal(12);
    const table = await kubectl(['get', 'cm', '-n', ns, '--chunk-size=2'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(table.code, table.stderr).to.equal(0);
    const rows = table.stdout.trim().split('\n').filter((l) => /^chunk-\d\d\s/.test(l));
    expect(rows).to.have.length(25);
  });
});
