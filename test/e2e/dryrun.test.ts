// kubectl v1.28 --dry-run=server for create, apply, patch and delete: kubectl reports
// the server's answer, and etcd (read directly) is untouched.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

// These tests count every ConfigMap in their namespace, so the root-CA publisher (which
// adds kube-root-ca.crt to each namespace) is off, as upstream runs such tests without
// a controller manager.
const withoutRootCA = ['--controllers=*,-root-ca-cert-publisher'];

describe('e2e: kubectl --dry-run=server', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let etcd: Etcd3;
  const ns = `e2e-dry-${Date.now().toString(36)}`;
  const k = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin });
  /** Every key under the namespace's configmaps with its revision, straight from etcd. */
  const snapshot = async (): Promise<Record<string, string>> => {
    const res = await etcd.getAll().prefix(`${cluster.etcdPrefix}/configmaps/${ns}/`).exec();
    return Object.fromEntries(res.kvs.map((kv) => [kv.key.toString(), kv.mod_revision]));
  };

  before(async () => {
    cluster = await startReplicas(1, { etcd: 'mutual-tls', extraArgs: withoutRootCA });
    etcd = cluster.etcdClient();
    expect((await k(['create', 'namespace', ns])).code).to.equal(0);
    expect((await k(['create', 'configmap', 'existing', '-n', ns, '--from-literal=a=1'])).code).to.equal(0);
  });
  after(async () => {
    etcd?.close();
    await cluster?.stop();
  });

  it('create, apply, patch and delete report success and change nothing in etcd', async () => {
    const before = await snapshot();
    expect(Object.keys(before)).to.deep.equal([`${cluster.etcdPrefix}/configmaps/${ns}/existing`]);
    let r = await k(['create', 'configmap', 'fresh', '-n', ns, '--from-literal=x=y', '--dry-run=server']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('configmap/fresh created (server dry run)');
    r = await k(['apply', '--server-side', '--dry-run=server', '-f', '-'], `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: ${ns}\ndata:\n  k: v\n`);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('configmap/applied serverside-applied (server dry run)');
    r = await k(['apply', '--dry-run=server', '-f', '-'], `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: existing\n  namespace: ${ns}\ndata:\n  a: "2"\n`);
    expect(r.code, r.stderr).to.equal(0);
    r = await k(['patch', 'configmap', 'existing', '-n', ns, '--dry-run=server', '-p', '{"data":{"a":"3"}}', '-o', 'jsonpath={.data.a}']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('3');
    r = await k(['delete', 'configmap', 'existing', '-n', ns, '--dry-run=server']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('configmap "existing" deleted (server dry run)');
    expect(await snapshot()).to.deep.equal(before);
    r = await k(['get', 'configmap', 'existing', '-n', ns, '-o', 'jsonpath={.data.a}']);
    expect(r.stdout).to.equal('1');
  });
});
