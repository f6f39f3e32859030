// kubectl v1.28 server-side apply: create, a second manager's conflict, --force-conflicts,
// the move from client-side to server-side apply, and the same file applied twice.
import { expect } from 'chai';
import { kubectl, startReplicas, watch, type Cluster } from '../harness/index.js';

interface Entry { manager: string; operation: string; fieldsV1: Record<string, unknown> }
interface Obj { metadata: { resourceVersion?: string; managedFields?: Entry[]; annotations?: Record<string, string> }; data?: Record<string, string> }

describe('e2e: kubectl apply --server-side', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `e2e-apply-${Date.now().toString(36)}`;
  const k = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin });
  const manifest = (name: string, data: Record<string, string>) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n    app: demo\ndata:\n${Object.entries(data).map(([a, b]) => `  ${a}: ${b}`).join('\n')}\n`;
  const get = async (name: string): Promise<Obj> => {
    const r = await k(['get', 'configmap', name, '-n', ns, '-o', 'json', '--show-managed-fields']);
    expect(r.code, r.stderr).to.equal(0);
    return JSON.parse(r.stdout) as Obj;
  };

  before(async () => {
    cluster = await startReplicas(1, { etcd: 'mutual-tls' });
    const r = await k(['create', 'namespace', ns]);
    expect(r.code, r.stderr).to.equal(0);
  });
  after(async () => { await cluster?.stop(); });

  it('creates, refuses a conflicting second manager, and lets --force-conflicts win', async () => {
    let r = await k(['apply', '--server-side', '-f', '-'], manifest('ssa', { key: 'one' }));
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('configmap/ssa serverside-applied');
    let obj = await get('ssa');
    expect(obj.metadata.managedFields?.map((e) => [e.manager, e.operation])).to.deep.equal([['kubectl', 'Apply']]);
    r = await k(['apply', '--server-side', '--field-manager=other', '-f', '-'], manifest('ssa', { key: 'two' }));
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('Apply failed with 1 conflict: conflict with "kubectl": .data.key');
    expect((await get('ssa')).data).to.deep.equal({ key: 'one' });
    r = await k(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], manifest('ssa', { key: 'two' }));
    expect(r.code, r.stderr).to.equal(0);
    obj = await get('ssa');
    expect(obj.data).to.deep.equal({ key: 'two' });
    const byManager = Object.fromEntries(obj.metadata.managedFields!.map((e) => [e.manager, e.fieldsV1]));
    expect(byManager['other']).to.deep.equal({ 'f:data': { 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    expect(byManager['kubectl']).to.deep.equal({ 'f:metadata': { 'f:labels': { 'f:app': {} } } });
  });

  it('moves an object from client-side apply to server-side apply without conflicts', async () => {
    let r = await k(['apply', '-f', '-'], manifest('migrate', { key: 'one', other: 'x' }));
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('configmap/migrate created');
    let obj = await get('migrate');
    expect(obj.metadata.managedFields?.map((e) => [e.manager, e.operation])).to.deep.equal([['kubectl-client-side-apply', 'Update']]);
    r = await k(['apply', '--server-side', '-f', '-'], manifest('migrate', { key: 'two', other: 'x' }));
    expect(r.code, r.stderr).to.equal(0);
    obj = await get('migrate');
    expect(obj.data).to.deep.equal({ key: 'two', other: 'x' });
    const managers = obj.metadata.managedFields!.map((e) => e.manager);
    expect(managers).to.include('kubectl');
    expect(managers).to.not.include('kubectl-client-side-apply');
    const owned = obj.metadata.managedFields!.find((e) => e.manager === 'kubectl')!.fieldsV1;
    expect(owned).to.deep.equal({ 'f:data': { 'f:key': {}, 'f:other': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    // The last-applied annotation follows the server-side applied configuration.
    const last = JSON.parse(obj.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration']) as Obj;
    expect(last.data).to.deep.equal({ key: 'two', other: 'x' });
    // Dropping a field from the configuration now removes it.
    r = await k(['apply', '--server-side', '-f', '-'], manifest('migrate', { key: 'two' }));
    expect(r.code, r.stderr).to.equal(0);
    expect((await get('migrate')).data).to.deep.equal({ key: 'two' });
  });

  for (const mode of [[], ['--server-side']]) {
    it(`writes nothing when the same file is applied again${mode.length ? ' server-side' : ''}: no new resourceVersion, no event`, async () => {
      const name = `twice${mode.length ? '-ssa' : ''}`;
      const r = await k(['apply', ...mode, '-f', '-'], manifest(name, { key: 'one' }));
      expect(r.code, r.stderr).to.equal(0);
      const first = await get(name);
      const w = await watch<Obj>(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${first.metadata.resourceVersion}&fieldSelector=metadata.name%3D${name}`, cluster.credentialsFor());
      try {
        // A second later: a new managedFields time would make a different object.
        await new Promise((res) => setTimeout(res, 1100));
        const again = await k(['apply', ...mode, '-f', '-'], manifest(name, { key: 'one' }));
        expect(again.code, again.stderr).to.equal(0);
        expect(again.stdout.trim()).to.equal(mode.length ? `configmap/${name} serverside-applied` : `configmap/${name} unchanged`);
        expect((await get(name)).metadata).to.deep.equal(first.metadata);
        // The first event after it is the next real change's.
        expect((await k(['apply', ...mode, '-f', '-'], manifest(name, { key: 'two' }))).code).to.equal(0);
        const changed = await get(name);
        expect(changed.metadata.resourceVersion).to.not.equal(first.metadata.resourceVersion);
        const e = await w.next(5000);
        expect([e.type, e.object.metadata.resourceVersion]).to.deep.equal(['MODIFIED', changed.metadata.resourceVersion]);
      } finally {
        w.close();
      }
    });
  }
});
