// RBAC with the real kubectl v1.28: an unprivileged token user is denied, granted by
// `kubectl create role/rolebinding` in one namespace only; `kubectl auth can-i` (with
// and without --as, and --list) and `kubectl auth reconcile -f` against the server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e authorization: RBAC with kubectl', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `authz-${Date.now().toString(36)}`;
  const other = `${ns}-other`;
  const asAdmin = (args: string[]) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0) });
  const asJane = (args: string[]) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0, 'jane') });

  before(async () => {
    cluster = await startReplicas(1, { authorizationMode: 'Node,RBAC', tokens: [{ token: 'jane-token', name: 'jane', uid: 'j1' }] });
    for (const n of [ns, other]) expect((await asAdmin(['create', 'namespace', n])).code).to.equal(0);
  });
  after(async () => { await cluster?.stop(); });

  it('an unprivileged token user is denied with upstream\'s message', async () => {
    const r = await asJane(['get', 'configmaps', '-n', ns]);
    expect(r.code).to.equal(1);
    expect(r.stderr.trim()).to.equal(`Error from server (Forbidden): configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`);
    const ci = await asJane(['auth', 'can-i', 'list', 'configmaps', '-n', ns]);
    expect([ci.code, ci.stdout.trim()]).to.deep.equal([1, 'no']);
  });

  it('kubectl create role/rolebinding grants in that namespace only', async () => {
    const role = await asAdmin(['create', 'role', 'cm-reader', '--verb=get,list,watch', '--resource=configmaps', '-n', ns]);
    expect(role.code, role.stderr).to.equal(0);
    expect(role.stdout.trim()).to.equal('role.rbac.authorization.k8s.io/cm-reader created');
    const rb = await asAdmin(['create', 'rolebinding', 'jane-cm', '--role=cm-reader', '--user=jane', '-n', ns]);
    expect(rb.code, rb.stderr).to.equal(0);
    expect(rb.stdout.trim()).to.equal('rolebinding.rbac.authorization.k8s.io/jane-cm created');
    let r = await asJane(['get', 'configmaps', '-n', ns]);
    for (let i = 0; i < 20 && r.code !== 0; i++) r = await asJane(['get', 'configmaps', '-n', ns]);
    expect(r.code, r.stderr).to.equal(0);
    const elsewhere = await asJane(['get', 'configmaps', '-n', other]);
    expect(elsewhere.code).to.equal(1);
    expect(elsewhere.stderr).to.contain(`cannot list resource "configmaps" in API group "" in the namespace "${other}"`);
    const write = await asJane(['create', 'configmap', 'x', '-n', ns]);
    expect(write.code).to.equal(1);
    expect(write.stderr).to.contain('cannot create resource "configmaps"');
  });

  it('kubectl auth can-i answers for the caller and with --as', async () => {
    const yes = await asJane(['auth', 'can-i', 'list', 'configmaps', '-n', ns]);
    expect([yes.code, yes.stdout.trim()]).to.deep.equal([0, 'yes']);
    const no = await asJane(['auth', 'can-i', 'delete', 'configmaps', '-n', ns]);
    expect([no.code, no.stdout.trim()]).to.deep.equal([1, 'no']);
    const as = await asAdmin(['auth', 'can-i', 'get', 'configmaps', '-n', ns, '--as', 'jane']);
    expect([as.code, as.stdout.trim()]).to.deep.equal([0, 'yes']);
    const asOther = await asAdmin(['auth', 'can-i', 'get', 'configmaps', '-n', other, '--as', 'jane']);
    expect([asOther.code, asOther.stdout.trim()]).to.deep.equal([1, 'no']);
    const admin = await asAdmin(['auth', 'can-i', '*', '*']);
    expect([admin.code, admin.stdout.trim()]).to.deep.equal([0, 'yes']);
    const path = await asJane(['auth', 'can-i', 'get', '/version']);
    expect(path.stdout.trim()).to.equal('yes');
  });

  it('kubectl auth can-i --list shows the caller\'s rules', async () => {
    const r = await asJane(['auth', 'can-i', '--list', '-n', ns]);
    expect(r.code, r.stderr).to.equal(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    expect(lines.some((l) => /^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/.test(l)), r.stdout).to.equal(true);
    expect(lines.some((l) => /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/.test(l)), r.stdout).to.equal(true);
    expect(lines.some((l) => /^\s+\[\/version\]\s+\[\]\s+\[get\]$/.test(l)), r.stdout).to.equal(true);
    const elsewhere = await asJane(['auth', 'can-i', '--list', '-n', other]);
    expect(elsewhere.stdout).not.to.match(/^configmaps\s/m);
  });

  it('kubectl auth reconcile -f creates, then adds missing rules and subjects', async () => {
    const file = join(cluster.dir, 'rbac.yaml');
    const manifest = (verbs: string, users: string[]) => `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: secret-reader
  namespace: ${ns}
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: [${verbs}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: secret-readers
  namespace: ${ns}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: secret-reader
subjects:
${users.map((u) => `- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: ${u}`).join('\n')}
`;
    writeFileSync(file, manifest('"get"', ['jane']));
    const first = await asAdmin(['auth', 'reconcile', '-f', file]);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout).to.contain('role.rbac.authorization.k8s.io/secret-reader reconciled');
    expect(first.stdout).to.contain('rolebinding.rbac.authorization.k8s.io/secret-readers reconciled');
    writeFileSync(file, manifest('"get", "list"', ['bob']));
    const second = await asAdmin(['auth', 'reconcile', '-f', file]);
    expect(second.code, second.stderr).to.equal(0);
    const role = await asAdmin(['get', 'role', 'secret-reader', '-n', ns, '-o', 'jsonpath={.rules[*].verbs}']);
    expect(role.stdout).to.contain('get').and.to.contain('list');
    const rb = await asAdmin(['get', 'rolebinding', 'secret-readers', '-n', ns, '-o', 'jsonpath={.subjects[*].name}']);
    expect(rb.stdout.split(' ').sort()).to.deep.equal(['bob', 'jane']);
    let can = await asJane(['auth', 'can-i', 'get', 'secrets', '-n', ns]);
    for (let i = 0; i < 20 && can.stdout.trim() !== 'yes'; i++) can = await asJane(['auth', 'can-i', 'get', 'secrets', '-n', ns]);
    expect(can.stdout.trim()).to.equal('yes');
  });
});
