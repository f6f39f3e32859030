// The spine, driven by the real kubectl v1.28 through two replicas on one etcd:
// discovery, explain, CRUD of core and RBAC kinds, apply of a multi-document manifest,
// output formats, selectors, and errors as kubectl prints them.
import { expect } from 'chai';
import { kubectlOn, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e kubectl: create, read, update, delete through two replicas', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `crud-${Date.now().toString(36)}`;
  const { k, ok } = kubectlOn(() => cluster);

  before(async () => {
    cluster = await startReplicas(2, { etcd: 'mutual-tls' });
    await ok(['create', 'namespace', ns]);
  });
  after(async () => { await cluster?.stop(); });

  it('api-resources lists the served kinds with short names and scope', async () => {
    const out = await ok(['api-resources', '--no-headers']);
    const rows = out.trim().split('\n').map((l) => l.trim().split(/\s+/));
    const find = (name: string, apiVersion: string) => rows.find((r) => r[0] === name && r.includes(apiVersion));
    expect(find('configmaps', 'v1')).to.deep.equal(['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
    expect(find('namespaces', 'v1')).to.deep.equal(['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    expect(find('secrets', 'v1')).to.deep.equal(['secrets', 'v1', 'true', 'Secret']);
    expect(find('clusterroles', 'rbac.authorization.k8s.io/v1')).to.deep.equal(['clusterroles', 'rbac.authorization.k8s.io/v1', 'false', 'ClusterRole']);
    expect(find('leases', 'coordination.k8s.io/v1')).to.deep.equal(['leases', 'coordination.k8s.io/v1', 'true', 'Lease']);
  });

  it('explain describes role.rules from the served OpenAPI', async () => {
    const out = await ok(['explain', 'role.rules']);
    expect(out).to.match(/KIND:\s+Role/);
    expect(out).to.match(/FIELD: rules <\[\]PolicyRule>/);
    expect(out).to.match(/verbs\s+<\[\]string> -required-/);
  });

  it('creates, lists, labels, annotates, patches and deletes a configmap', async () => {
    expect(await ok(['-n', ns, 'create', 'configmap', 'c1', '--from-literal=a=1'])).to.equal('configmap/c1 created\n');
    expect(await ok(['-n', ns, 'label', 'configmap', 'c1', 'tier=web'])).to.equal('configmap/c1 labeled\n');
    expect(await ok(['-n', ns, 'annotate', 'configmap', 'c1', 'note=hi'])).to.equal('configmap/c1 annotated\n');
    expect(await ok(['-n', ns, 'patch', 'configmap', 'c1', '-p', '{"data":{"b":"2"}}'])).to.equal('configmap/c1 patched\n');
    expect(await ok(['-n', ns, 'patch', 'configmap', 'c1', '--type=json', '-p', '[{"op":"add","path":"/data/c","value":"3"}]'])).to.equal('configmap/c1 patched\n');
    expect(await ok(['-n', ns, 'patch', 'configmap', 'c1', '--type=merge', '-p', '{"data":{"a":null}}'])).to.equal('configmap/c1 patched\n');
    const got = JSON.parse(await ok(['-n', ns, 'get', 'configmap', 'c1', '-o', 'json'], undefined, 1));
    expect(got.data).to.deep.equal({ b: '2', c: '3' });
    expect(got.metadata.labels).to.deep.equal({ tier: 'web' });
    expect(got.metadata.annotations).to.deep.equal({ note: 'hi' });
    const table = await ok(['-n', ns, 'get', 'configmaps']);
    expect(table.split('\n')[0]).to.match(/^NAME\s+DATA\s+AGE$/);
    expect(table).to.match(/\nc1\s+2\s+\S+\n/);
    const described = await ok(['-n', ns, 'describe', 'configmap', 'c1']);
    expect(described).to.match(/Name:\s+c1/);
    expect(described).to.match(/Labels:\s+tier=web/);
    expect(await ok(['-n', ns, 'delete', 'configmap', 'c1'], undefined, 1)).to.equal('configmap "c1" deleted\n');
    const gone = await k(['-n', ns, 'get', 'configmap', 'c1']);
    expect(gone.code).to.equal(1);
    expect(gone.stderr.trim()).to.equal('Error from server (NotFound): configmaps "c1" not found');
  });

  it('creates and reads secrets with their type column', async () => {
    await ok(['-n', ns, 'create', 'secret', 'generic', 's1', '--from-literal=password=hunter2']);
    const out = await ok(['-n', ns, 'get', 'secret', 's1'], undefined, 1);
    expect(out).to.match(/^NAME\s+TYPE\s+DATA\s+AGE\ns1\s+Opaque\s+1\s+\S+\n$/);
    const data = await ok(['-n', ns, 'get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
    expect(Buffer.from(data, 'base64').toString()).to.equal('hunter2');
  });

  it('manages the four RBAC kinds', async () => {
    await ok(['-n', ns, 'create', 'role', 'reader', '--verb=get,list', '--resource=configmaps']);
    await ok(['-n', ns, 'create', 'rolebinding', 'reader-alice', '--role=reader', '--user=alice']);
    await ok(['create', 'clusterrole', `${ns}-viewer`, '--verb=get', '--resource=secrets']);
    await ok(['create', 'clusterrolebinding', `${ns}-viewer-devs`, `--clusterrole=${ns}-viewer`, '--group=devs']);
    const role = JSON.parse(await ok(['-n', ns, 'get', 'role', 'reader', '-o', 'json'], undefined, 1));
    expect(role.rules).to.deep.equal([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]);
    const rb = await ok(['-n', ns, 'get', 'rolebinding', 'reader-alice', '-o', 'wide'], undefined, 1);
    expect(rb).to.match(/reader-alice\s+Role\/reader\s+\S+\s+alice/);
    const crb = JSON.parse(await ok(['get', 'clusterrolebinding', `${ns}-viewer-devs`, '-o', 'json']));
    expect(crb.roleRef).to.deep.equal({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${ns}-viewer` });
    expect(crb.subjects).to.deep.equal([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }]);
    // roleRef is immutable: changing it is a 422 as upstream.
    const changed = await k(['patch', 'clusterrolebinding', `${ns}-viewer-devs`, '--type=merge', '-p', '{"roleRef":{"name":"other"}}']);
    expect(changed.code).to.equal(1);
    expect(changed.stderr.trim()).to.equal(`The ClusterRoleBinding "${ns}-viewer-devs" is invalid: roleRef: Invalid value: `
      + 'rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"other"}: cannot change roleRef');
    expect(await ok(['delete', 'clusterrolebinding', `${ns}-viewer-devs`])).to.equal(`clusterrolebinding.rbac.authorization.k8s.io "${ns}-viewer-devs" deleted\n`);
    expect(await ok(['delete', 'clusterrole', `${ns}-viewer`], undefined, 1)).to.equal(`clusterrole.rbac.authorization.k8s.io "${ns}-viewer" deleted\n`);
  });

  it('applies a multi-document manifest, then updates it', async () => {
    const manifest = (value: string) => `apiVersion: v1
kind: ConfigMap
metadata: {name: app-config, namespace: ${ns}, labels: {app: demo}}
data: {mode: "${value}"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: app-role, namespace: ${ns}}
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get"]
---
apiVersion: v1
kind: Secret
metadata: {name: app-secret, namespace: ${ns}}
stringData: {token: abc}
`;
    const first = await ok(['apply', '-f', '-'], manifest('one'));
    expect(first.trim().split('\n')).to.deep.equal([
      'configmap/app-config created', 'role.rbac.authorization.k8s.io/app-role created', 'secret/app-secret created']);
    const second = await ok(['apply', '-f', '-'], manifest('two'), 1);
    // stringData is write-only (folded into data), so kubectl's three-way diff always
    // re-sends it and reports the Secret "configured", exactly as against upstream.
    expect(second.trim().split('\n')).to.deep.equal([
      'configmap/app-config configured', 'role.rbac.authorization.k8s.io/app-role unchanged', 'secret/app-secret configured']);
    expect(await ok(['-n', ns, 'get', 'cm', 'app-config', '-o', 'jsonpath={.data.mode}'])).to.equal('two');
  });

  it('prints -o name and yaml, and filters by label and field selectors', async () => {
    await ok(['-n', ns, 'create', 'configmap', 'sel-a']);
    await ok(['-n', ns, 'create', 'configmap', 'sel-b']);
    await ok(['-n', ns, 'label', 'configmap', 'sel-a', 'color=red']);
    await ok(['-n', ns, 'label', 'configmap', 'sel-b', 'color=blue']);
    expect(await ok(['-n', ns, 'get', 'cm', '-l', 'color=red', '-o', 'name'], undefined, 1)).to.equal('configmap/sel-a\n');
    expect(await ok(['-n', ns, 'get', 'cm', '-l', 'color in (red,blue)', '-o', 'name'])).to.equal('configmap/sel-a\nconfigmap/sel-b\n');
    expect(await ok(['-n', ns, 'get', 'cm', '-l', 'color!=red,color', '-o', 'name'])).to.equal('configmap/sel-b\n');
    expect(await ok(['-n', ns, 'get', 'cm', '--field-selector', 'metadata.name=sel-b', '-o', 'name'])).to.equal('configmap/sel-b\n');
    const yaml = await ok(['-n', ns, 'get', 'cm', 'sel-a', '-o', 'yaml']);
    expect(yaml).to.match(/^apiVersion: v1\nkind: ConfigMap\nmetadata:\n/);
    expect(yaml).to.match(/\n    color: red\n/);
    const bad = await k(['-n', ns, 'get', 'cm', '--field-selector', 'spec.foo=x']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.contain('BadRequest');
  });

  it('reports conflicts and invalid objects as upstream does', async () => {
    await ok(['-n', ns, 'create', 'configmap', 'dup']);
    const dup = await k(['-n', ns, 'create', 'configmap', 'dup']);
    expect(dup.code).to.equal(1);
    expect(dup.stderr.trim()).to.equal('error: failed to create configmap: configmaps "dup" already exists');
    const invalid = await k(['-n', ns, 'create', 'configmap', 'Not_Valid']);
    expect(invalid.code).to.equal(1);
    expect(invalid.stderr).to.contain('ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain');
  });

  it('deletes a namespace and sees it gone through the other replica', async () => {
    const tmp = `${ns}-tmp`;
    await ok(['create', 'namespace', tmp], undefined, 1);
    expect(await ok(['get', 'namespace', tmp, '-o', 'name'])).to.equal(`namespace/${tmp}\n`);
    expect(await ok(['delete', 'namespace', tmp])).to.equal(`namespace "${tmp}" deleted\n`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await k(['get', 'namespace', tmp], undefined, 1);
      if (r.code !== 0) { expect(r.stderr).to.contain('NotFound'); break; }
      expect(Date.now(), 'namespace still present').to.be.below(deadline);
      await new Promise((res) => setTimeout(res, 300));
    }
  });
});
