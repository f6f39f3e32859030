// Who can (authorization.openshift.io/v1 ResourceAccessReview and LocalResourceAccessReview)
// through HTTPS on two replicas (RBAC and Node modes): exact answers from the RBAC index,
// aggregated roles, resourceNames, non-resource URLs, service accounts, the Node
// authorizer's group, errors named; 403 without create on the review; discovery, and the
// group off with --runtime-config on the second replica; kubectl create -f and get --raw.
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, request, startReplicas, until, type Cluster } from '../harness/index.js';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const whoCan = '/apis/authorization.openshift.io/v1';
const widgets = 'whocan.example.com';

interface Answer { kind: string; apiVersion: string; namespace?: string; users: string[]; groups: string[]; evalutionError: string; evaluationError?: string }

describe('who-can: ResourceAccessReview over HTTPS (RBAC, two replicas)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `whocan-${Date.now().toString(36)}`;
  const as = (user: string, replica = 0) => (path: string, opts: Parameters<typeof request>[1] = {}) =>
    request(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(user), ...opts });
  const admin = as('admin');
  const post = (path: string, body: unknown, user = 'admin') => as(user)(path, { method: 'POST', body });
  const created = async (path: string, body: unknown) => expect((await post(path, body)).status, path).to.equal(201);
  const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
  const group = (name: string) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
  const review = async (action: Record<string, unknown>, namespace?: string, as_ = 'admin'): Promise<Answer> => {
    const path = namespace ? `${whoCan}/namespaces/${namespace}/localresourceaccessreviews` : `${whoCan}/resourceaccessreviews`;
    const kind = namespace ? 'LocalResourceAccessReview' : 'ResourceAccessReview';
    const r = await post(path, { kind, apiVersion: 'authorization.openshift.io/v1', ...action }, as_);
    expect(r.status, r.text).to.equal(201);
    return r.body as Answer;
  };

  before(async () => {
    cluster = await startReplicas(2, {
      authorizationMode: 'Node,RBAC',
      tokens: [{ token: 'alice-token', name: 'alice' }, { token: 'rev-token', name: 'reviewer' }],
      extraArgs: (i) => (i === 1 ? ['--runtime-config=authorization.openshift.io/v1=false'] : []),
    });
    await created('/api/v1/namespaces', { metadata: { name: ns } });
    const rule = (verbs: string[], resources: string[], resourceNames?: string[]) => ({ apiGroups: [widgets], resources, verbs, ...(resourceNames ? { resourceNames } : {}) });
    await created(`${rbac}/clusterroles`, { metadata: { name: `${ns}-writer` }, rules: [rule(['create'], ['widgets'])] });
    await created(`${rbac}/clusterroles`, { metadata: { name: `${ns}-agg` }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${ns}/agg`]: 'true' } }] } });
    await created(`${rbac}/clusterroles`, { metadata: { name: `${ns}-part`, labels: { [`${ns}/agg`]: 'true' } }, rules: [rule(['create'], ['widgets'], ['special'])] });
    await created(`${rbac}/clusterroles`, { metadata: { name: `${ns}-probe` }, rules: [{ nonResourceURLs: ['/whocan-probe/*'], verbs: ['get'] }] });
    await created(`${rbac}/namespaces/${ns}/roles`, { metadata: { name: 'star' }, rules: [rule(['*'], ['*'])] });
    const roleRef = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
    await created(`${rbac}/clusterrolebindings`, { metadata: { name: `${ns}-writer` }, roleRef: roleRef('ClusterRole', `${ns}-writer`), subjects: [user(`${ns}-u-cluster`), group(`${ns}-g-cluster`)] });
    await created(`${rbac}/clusterrolebindings`, { metadata: { name: `${ns}-probe` }, roleRef: roleRef('ClusterRole', `${ns}-probe`), subjects: [group(`${ns}-g-probe`)] });
    await created(`${rbac}/clusterrolebindings`, { metadata: { name: `${ns}-dangling` }, roleRef: roleRef('ClusterRole', `${ns}-missing`), subjects: [user('nobody')] });
    await created(`${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name: 'agg' }, roleRef: roleRef('ClusterRole', `${ns}-agg`), subjects: [{ kind: 'ServiceAccount', name: 'robot' }, group(`${ns}-g-ns`)] });
    await created(`${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name: 'star' }, roleRef: roleRef('Role', 'star'), subjects: [user(`${ns}-u-star`)] });
    await created(`${rbac}/clusterrolebindings`, { metadata: { name: `${ns}-reviewer` }, roleRef: roleRef('ClusterRole', 'k8s-ts:who-can'), subjects: [user('reviewer')] });
    // The aggregation controller fills the aggregated role; replica 0's index follows by watch.
    await until('aggregated role filled', async () => ((await admin(`${rbac}/clusterroles/${ns}-agg`)).body as { rules?: unknown[] | null }).rules?.length);
  });
  after(async () => { await cluster?.stop(); });

  const missing = `clusterrole.rbac.authorization.k8s.io "${ns}-missing" not found`;

  it('cluster scope: the ClusterRoleBindings\' subjects, system:masters, and the dangling binding named', async () => {
    const a = await until('grants seen', async () => {
      const r = await review({ verb: 'create', resourceAPIGroup: widgets, resource: 'widgets', resourceName: 'special' });
      return r.users.includes(`${ns}-u-cluster`) && r;
    });
    expect(a).to.deep.equal({
      kind: 'ResourceAccessReviewResponse', apiVersion: 'authorization.openshift.io/v1',
      users: [`${ns}-u-cluster`], groups: ['system:masters', `${ns}-g-cluster`], evalutionError: missing, evaluationError: missing,
    });
  });

  it('namespace scope: RoleBindings too, service accounts by full name, aggregated roles, resourceNames', async () => {
    const special = await review({ verb: 'create', resourceAPIGroup: widgets, resource: 'widgets', resourceName: 'special' }, ns);
    expect(special).to.deep.include({ namespace: ns, users: [`system:serviceaccount:${ns}:robot`, `${ns}-u-cluster`, `${ns}-u-star`] });
    expect(special.groups).to.deep.equal(['system:masters', `${ns}-g-cluster`, `${ns}-g-ns`]);
    // The aggregated rule names one object: another name leaves its subjects out.
    const other = await review({ verb: 'create', resourceAPIGroup: widgets, resource: 'widgets', resourceName: 'other' }, ns);
    expect(other.users).to.deep.equal([`${ns}-u-cluster`, `${ns}-u-star`]);
    expect(other.groups).to.deep.equal(['system:masters', `${ns}-g-cluster`]);
    // `*` verbs and resources of the Role: delete of a subresource.
    const del = await review({ verb: 'delete', resourceAPIGroup: widgets, resource: 'widgets/status', resourceName: 'x' }, ns);
    expect(del.users).to.include(`${ns}-u-star`).and.not.include(`${ns}-u-cluster`);
    // The action's namespace must be the path's.
    const wrong = await post(`${whoCan}/namespaces/${ns}/localresourceaccessreviews`, { verb: 'get', resource: 'pods', namespace: 'elsewhere' });
    expect(wrong.status).to.equal(422);
  });

  it('every subject answered is allowed by a SubjectAccessReview, and a stranger is not', async () => {
    const a = await review({ verb: 'create', resourceAPIGroup: widgets, resource: 'widgets', resourceName: 'special' }, ns);
    const sar = async (spec: Record<string, unknown>) => ((await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      spec: { ...spec, resourceAttributes: { namespace: ns, verb: 'create', group: widgets, resource: 'widgets', name: 'special' } },
    })).body as { status: { allowed: boolean } }).status.allowed;
    for (const u of a.users) expect(await sar({ user: u }), u).to.equal(true);
    for (const g of a.groups) expect(await sar({ user: 'someone', groups: [g] }), g).to.equal(true);
    expect(await sar({ user: 'stranger', groups: ['strangers'] })).to.equal(false);
  });

  it('non-resource URLs, and the Node authorizer\'s group where its rules apply', async () => {
    const probe = await review({ verb: 'get', isNonResourceURL: true, path: '/whocan-probe/deep' });
    expect(probe.groups).to.deep.equal(['system:masters', `${ns}-g-probe`]);
    expect(probe.users).to.deep.equal([]);
    const nodes = await review({ verb: 'get', resource: 'services' });
    expect(nodes.groups).to.include('system:nodes');
  });

  it('403 without create on the review; the bootstrap role k8s-ts:who-can grants it', async () => {
    const denied = await post(`${whoCan}/resourceaccessreviews`, { verb: 'get', resource: 'pods' }, 'alice');
    expect(denied.status).to.equal(403);
    expect(denied.body).to.deep.include({
      reason: 'Forbidden', code: 403,
      message: 'resourceaccessreviews.authorization.openshift.io is forbidden: User "alice" cannot create resource "resourceaccessreviews" in API group "authorization.openshift.io" at the cluster scope',
    });
    const local = await post(`${whoCan}/namespaces/${ns}/localresourceaccessreviews`, { verb: 'get', resource: 'pods' }, 'alice');
    expect(local.status).to.equal(403);
    expect((local.body as { message: string }).message).to.equal(
      `localresourceaccessreviews.authorization.openshift.io is forbidden: User "alice" cannot create resource "localresourceaccessreviews" in API group "authorization.openshift.io" in the namespace "${ns}"`);
    const crb = (await admin(`${rbac}/clusterrolebindings/k8s-ts:who-can`)).body as { subjects: unknown[] };
    expect(crb.subjects).to.deep.equal([group('system:masters')]);
    const ok = await until('reviewer granted', async () => {
      const r = await post(`${whoCan}/resourceaccessreviews`, { verb: 'get', resource: 'pods' }, 'reviewer');
      return r.status === 201 && r;
    });
    expect((ok.body as Answer).groups).to.include('system:masters');
  });

  it('validation: a verb is required, and a resource unless the URL is a non-resource one', async () => {
    const r = await post(`${whoCan}/resourceaccessreviews`, { resource: '' });
    expect(r.status).to.equal(422);
    expect(r.body).to.deep.include({ reason: 'Invalid', message: 'ResourceAccessReview.authorization.openshift.io "" is invalid: [verb: Required value, resource: Required value]' });
  });

  it('discovery lists the group; --runtime-config=authorization.openshift.io/v1=false removes it', async () => {
    const groups = ((await admin('/apis')).body as { groups: Array<{ name: string }> }).groups.map((g) => g.name);
    expect(groups).to.include('authorization.openshift.io');
    const v1 = (await admin(whoCan)).body as { resources: Array<{ name: string; namespaced: boolean; verbs: string[]; kind: string }> };
    expect(v1.resources.map((r) => [r.name, r.namespaced, r.verbs.join(','), r.kind])).to.deep.equal([
      ['localresourceaccessreviews', true, 'create', 'LocalResourceAccessReview'], ['resourceaccessreviews', false, 'create', 'ResourceAccessReview'],
    ]);
    const off = as('admin', 1);
    expect(((await off('/apis')).body as { groups: Array<{ name: string }> }).groups.map((g) => g.name)).to.not.include('authorization.openshift.io');
    expect((await off(`${whoCan}/resourceaccessreviews`, { method: 'POST', body: { verb: 'get', resource: 'pods' } })).status).to.equal(404);
  });

  it('kubectl: create -f a review, get --raw the group', async () => {
    const file = join(cluster.dir, 'rar.yaml');
    writeFileSync(file, `apiVersion: authorization.openshift.io/v1\nkind: LocalResourceAccessReview\nverb: create\nresourceAPIGroup: ${widgets}\nresource: widgets\nresourceName: special\n`);
    const r = await kubectl(['create', '-n', ns, '-f', file, '-o', 'json'], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout) as Answer;
    expect(out.kind).to.equal('ResourceAccessReviewResponse');
    expect(out.users).to.include(`system:serviceaccount:${ns}:robot`);
    const raw = await kubectl(['get', '--raw', whoCan], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(raw.code, raw.stderr).to.equal(0);
    expect(JSON.parse(raw.stdout)).to.deep.include({ kind: 'APIResourceList', groupVersion: 'authorization.openshift.io/v1' });
    const denied = await kubectl(['create', '-n', ns, '-f', file], { kubeconfig: cluster.kubeconfigFor(0, 'alice') });
    expect(denied.code).to.not.equal(0);
    expect(denied.stderr).to.contain('cannot create resource "localresourceaccessreviews" in API group "authorization.openshift.io"');
  });
});
