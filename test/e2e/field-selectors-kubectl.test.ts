// kubectl v1.28 with --field-selector: pods by node in the wide table, a watch that sees
// nodes enter and leave the selection, deletion by selector, and the server's refusals
// as kubectl prints them.
import { expect } from 'chai';
import { kubectl, kubectlOn, kubectlStream, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl --field-selector', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `e2e-fs-${Date.now().toString(36)}`;
  const { k, ok } = kubectlOn(() => cluster, ns);
  const pod = (name: string, node: string) => JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] },
  });

  before(async () => {
    cluster = await startReplicas(2, { etcd: 'mutual-tls' });
    const r = await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
    await ok(['apply', '-f', '-'], pod('on-n1', 'n1'));
    await ok(['apply', '-f', '-'], pod('on-n2', 'n2'));
    expect(await ok(['run', 'unbound', '--image=nginx'])).to.equal('pod/unbound created\n');
  });
  after(async () => { await cluster?.stop(); });

  it('get pods -o wide --field-selector spec.nodeName=n1 lists the pods bound to n1', async () => {
    const wide = await ok(['get', 'pods', '-o', 'wide', '--field-selector', 'spec.nodeName=n1'], undefined, 1);
    const [header, ...rows] = wide.trim().split('\n');
    expect(header!.split(/\s{2,}/)).to.deep.equal(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(rows.map((r) => r.split(/\s+/))).to.have.length(1);
    const cells = rows[0]!.split(/\s+/);
    expect([cells[0], cells[6]]).to.deep.equal(['on-n1', 'n1']);
    const unbound = await ok(['get', 'pods', '-o', 'name', '--field-selector', 'spec.nodeName=']);
    expect(unbound).to.equal('pod/unbound\n');
    const all = await ok(['get', 'pods', '-A', '-o', 'name', '--field-selector', `spec.nodeName!=,metadata.namespace=${ns}`]);
    expect(all.trim().split('\n').sort()).to.deep.equal(['pod/on-n1', 'pod/on-n2']);
  });

  it('get nodes -w --field-selector spec.unschedulable=true: a cordoned node appears, an uncordoned one goes', async () => {
    const node = `${ns}-node`;
    await kubectl(['create', '-f', '-'], { kubeconfig: cluster.kubeconfigFor(0), stdin: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: node } }) });
    const w = kubectlStream(['get', 'nodes', '-w', '--output-watch-events', `--field-selector=spec.unschedulable=true,metadata.name=${node}`],
      { kubeconfig: cluster.kubeconfigFor(1) });
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect(w.stdout()).to.not.contain(node);
      await ok(['cordon', node]);
      await w.waitFor(new RegExp(`^ADDED\\s+${node}\\s`, 'm'));
      await ok(['uncordon', node]);
      await w.waitFor(new RegExp(`^DELETED\\s+${node}\\s`, 'm'));
    } finally { w.stop(); }
  });

  it('delete pods --field-selector deletes only the selected pods', async () => {
    expect(await ok(['delete', 'pods', '--field-selector', 'spec.nodeName=n2', '--grace-period=0', '--force'])).to.contain('pod "on-n2" force deleted');
    expect((await ok(['get', 'pods', '-o', 'name'], undefined, 1)).trim().split('\n').sort()).to.deep.equal(['pod/on-n1', 'pod/unbound']);
  });

  it("prints the server's refusal of a label the kind does not accept", async () => {
    const cases: [string[], string][] = [
      [['get', 'pods', '--field-selector', 'spec.containers=x'], 'field label not supported: spec.containers'],
      [['get', 'nodes', '--field-selector', 'metadata.namespace=x'], 'field label not supported: metadata.namespace'],
      [['get', 'services', '--field-selector', 'spec.type=ClusterIP'], '"spec.type" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    ];
    for (const [args, message] of cases) {
      const r = await k(args);
      expect(r.code, args.join(' ')).to.equal(1);
      expect(r.stderr).to.match(/^Error from server \(BadRequest\): /);
      expect(r.stderr.trim()).to.satisfy((e: string) => e.endsWith(`: ${message}`));
    }
  });
});
