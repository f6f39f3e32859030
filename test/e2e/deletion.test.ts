// kubectl v1.28 delete --cascade over an owner/dependent pair of ConfigMaps: background
// and foreground delete the dependent, orphan keeps it without its owner reference.
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl delete --cascade', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `e2e-del-${Date.now().toString(36)}`;
  const k = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin });

  async function pair(tag: string): Promise<void> {
    let r = await k(['create', 'configmap', `owner-${tag}`, '-n', ns]);
    expect(r.code, r.stderr).to.equal(0);
    r = await k(['get', 'configmap', `owner-${tag}`, '-n', ns, '-o', 'jsonpath={.metadata.uid}']);
    const uid = r.stdout.trim();
    r = await k(['apply', '-f', '-'], `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dep-${tag}\n  namespace: ${ns}\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: owner-${tag}\n    uid: ${uid}\n    blockOwnerDeletion: true\n`);
    expect(r.code, r.stderr).to.equal(0);
  }

  async function dependent(tag: string): Promise<{ exists: boolean; owners: string }> {
    const r = await k(['get', 'configmap', `dep-${tag}`, '-n', ns, '-o', 'jsonpath={.metadata.ownerReferences[*].name}', '--ignore-not-found']);
    expect(r.code, r.stderr).to.equal(0);
    const got = await k(['get', 'configmap', `dep-${tag}`, '-n', ns, '--ignore-not-found', '-o', 'name']);
    return { exists: got.stdout.trim() !== '', owners: r.stdout.trim() };
  }

  async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  before(async () => {
    cluster = await startReplicas(1, { etcd: 'mutual-tls' });
    expect((await k(['create', 'namespace', ns])).code).to.equal(0);
  });
  after(async () => { await cluster?.stop(); });

  it('--cascade=foreground: kubectl waits for the owner, which goes after its dependent', async () => {
    await pair('fg');
    const r = await k(['delete', 'configmap', 'owner-fg', '-n', ns, '--cascade=foreground']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('configmap "owner-fg" deleted');
    expect((await dependent('fg')).exists).to.equal(false);
  });

  it('--cascade=background: the owner goes at once and the dependent follows', async () => {
    await pair('bg');
    const r = await k(['delete', 'configmap', 'owner-bg', '-n', ns, '--cascade=background']);
    expect(r.code, r.stderr).to.equal(0);
    await eventually('the dependent to go', async () => !(await dependent('bg')).exists);
  });

  it('--cascade=orphan: the dependent stays without its owner reference', async () => {
    await pair('or');
    const r = await k(['delete', 'configmap', 'owner-or', '-n', ns, '--cascade=orphan']);
    expect(r.code, r.stderr).to.equal(0);
    const got = await k(['get', 'configmap', 'owner-or', '-n', ns, '--ignore-not-found', '-o', 'name']);
    expect(got.stdout.trim()).to.equal('');
    expect(await dependent('or')).to.deep.equal({ exists: true, owners: '' });
  });
});
