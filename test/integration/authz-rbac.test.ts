// RBAC through HTTP on two real replicas: denials worded as upstream, grants through
// either replica enforced by both within a second, escalation prevention, aggregation,
// the bootstrap policy and the four access reviews.
import { expect } from 'chai';
import { request, startReplicas, type Cluster } from '../harness/index.js';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const authz = '/apis/authorization.k8s.io/v1';

describe('authorization: RBAC over HTTP (two replicas)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `rbac-${Date.now().toString(36)}`;
  const other = `${ns}-b`;
  const as = (user: string, replica = 0) => (path: string, opts: Parameters<typeof request>[1] = {}) =>
    request(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(user), ...opts });
  const admin = as('admin');
  const post = (call: ReturnType<typeof as>, path: string, body: unknown) => call(path, { method: 'POST', body });

  before(async () => {
    cluster = await startReplicas(2, {
      authorizationMode: 'RBAC',
      tokens: [
        { token: 'alice-token', name: 'alice', uid: 'a1' },
        { token: 'bob-token', name: 'bob', groups: ['devs'] },
        { token: 'carol-token', name: 'carol' },
      ],
    });
    for (const n of [ns, other]) expect((await post(admin, '/api/v1/namespaces', { metadata: { name: n } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('an unprivileged user is denied with upstream\'s 403', async () => {
    const r = await as('alice')(`/api/v1/namespaces/${ns}/configmaps`);
    expect(r.status).to.equal(403);
    expect(r.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`,
      reason: 'Forbidden', details: { kind: 'configmaps' }, code: 403,
    });
    const c = await as('alice')('/apis/rbac.authorization.k8s.io/v1/clusterroles/admin');
    expect((c.body as { message: string }).message).to.equal(
      'clusterroles.rbac.authorization.k8s.io "admin" is forbidden: User "alice" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope');
  });

  it('system:anonymous reads /version, /healthz, /livez, /readyz but not /api', async () => {
    for (const p of ['/version', '/healthz', '/livez', '/readyz']) {
      const r = await request(`${cluster.urls[1]}${p}`, cluster.credentialsFor('anonymous'));
      expect(r.status, p).to.equal(200);
    }
    const r = await request(`${cluster.urls[1]}/api`, cluster.credentialsFor('anonymous'));
    expect(r.status).to.equal(403);
    expect((r.body as { message: string }).message).to.equal('forbidden: User "system:anonymous" cannot get path "/api"');
    expect((await as('alice')('/api')).status).to.equal(200);
  });

  it('a grant made through one replica is enforced by the other within a second', async () => {
    const role = { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] };
    expect((await post(admin, `${rbac}/namespaces/${ns}/roles`, role)).status).to.equal(201);
    const start = Date.now();
    const created = await post(admin, `${rbac}/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'alice-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    expect(created.status).to.equal(201);
    let status = 0;
    while (Date.now() - start < 5000) {
      status = (await as('alice', 1)(`/api/v1/namespaces/${ns}/configmaps`)).status;
      if (status === 200) break;
    }
    const elapsed = Date.now() - start;
    console.log(`      propagation across replicas: ${elapsed} ms`);
    expect(status).to.equal(200);
    expect(elapsed).to.be.below(1000);
    expect((await as('alice', 1)(`/api/v1/namespaces/${other}/configmaps`)).status).to.equal(403);
    expect((await as('alice', 1)(`/api/v1/namespaces/${ns}/secrets`)).status).to.equal(403);
    // Revocation propagates too.
    expect((await admin(`${rbac}/namespaces/${ns}/rolebindings/alice-cm`, { method: 'DELETE' })).status).to.equal(200);
    const t0 = Date.now();
    while (Date.now() - t0 < 5000 && (await as('alice', 1)(`/api/v1/namespaces/${ns}/configmaps`)).status === 200) { /* poll */ }
    expect(Date.now() - t0).to.be.below(1000);
  });

  describe('escalation prevention', () => {
    before(async () => {
      // bob may manage roles and bindings in ns (`*` would include escalate and bind), and get configmaps.
      const role = { metadata: { name: 'rbac-manager' }, rules: [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      ] };
      expect((await post(admin, `${rbac}/namespaces/${ns}/roles`, role)).status).to.equal(201);
      expect((await post(admin, `${rbac}/namespaces/${ns}/rolebindings`, {
        metadata: { name: 'bob-manager' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'rbac-manager' },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
      })).status).to.equal(201);
      await waitAllowed(as('bob', 0), `${rbac}/namespaces/${ns}/roles`);
    });

    it('refuses a role granting permissions the user lacks, listing them as upstream', async () => {
      const r = await post(as('bob'), `${rbac}/namespaces/${ns}/roles`, { metadata: { name: 'too-much' },
        rules: [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'delete'] }] });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.include({ reason: 'Forbidden', code: 403,
        message: 'roles.rbac.authorization.k8s.io "too-much" is forbidden: user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
          + '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}' });
      expect((r.body as { details: unknown }).details).to.deep.equal({ name: 'too-much', group: 'rbac.authorization.k8s.io', kind: 'roles' });
    });

    it('allows a role within the user\'s permissions, and dry-run is checked the same way', async () => {
      const ok = { metadata: { name: 'cm-get' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] };
      expect((await post(as('bob'), `${rbac}/namespaces/${ns}/roles`, ok)).status).to.equal(201);
      const dry = await as('bob')(`${rbac}/namespaces/${ns}/roles?dryRun=All`, { method: 'POST', body: { metadata: { name: 'dry' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } });
      expect(dry.status).to.equal(403);
    });

    it('refuses an update that adds rules, and allows it with escalate', async () => {
      const cur = (await as('bob')(`${rbac}/namespaces/${ns}/roles/cm-get`)).body as Record<string, unknown>;
      const upd = { ...cur, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] };
      expect((await as('bob')(`${rbac}/namespaces/${ns}/roles/cm-get`, { method: 'PUT', body: upd })).status).to.equal(403);
      await grant('bob-escalate', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }], 'bob');
      const r = await as('bob')(`${rbac}/namespaces/${ns}/roles/cm-get`, { method: 'PUT', body: upd });
      expect(r.status).to.equal(200);
    });

    it('refuses a binding to a role the user does not hold, allows it with bind on that role name', async () => {
      const body = { metadata: { name: 'carol-admin' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'carol' }] };
      const denied = await post(as('bob'), `${rbac}/namespaces/${ns}/rolebindings`, body);
      expect(denied.status).to.equal(403);
      expect((denied.body as { message: string }).message).to.match(/^rolebindings\.rbac\.authorization\.k8s\.io "carol-admin" is forbidden: user "bob" \(groups=\["devs" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
      await grant('bob-bind-view', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['view'] }], 'bob');
      expect((await post(as('bob'), `${rbac}/namespaces/${ns}/rolebindings`, body)).status).to.equal(403);
      await grant('bob-bind-admin', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['admin'] }], 'bob');
      expect((await post(as('bob'), `${rbac}/namespaces/${ns}/rolebindings`, body)).status).to.equal(201);
    });

    it('allows binding a role whose permissions the user holds', async () => {
      const r = await post(as('bob'), `${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name: 'carol-cm' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'carol' }] });
      expect(r.status).to.equal(403); // cm-reader grants list, which bob lacks
      const only = { metadata: { name: 'cm-only' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] };
      expect((await post(admin, `${rbac}/namespaces/${ns}/roles`, only)).status).to.equal(201);
      await waitFor(async () => (await as('bob')(`${rbac}/namespaces/${ns}/roles/cm-only`)).status === 200);
      const r2 = await post(as('bob'), `${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name: 'carol-cm-get' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-only' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'carol' }] });
      expect(r2.status).to.equal(201);
    });
  });

  it('bootstrap policy: the default roles exist, aggregated and labelled', async () => {
    const view = (await admin(`${rbac}/clusterroles/view`)).body as { metadata: { labels: Record<string, string>; annotations: Record<string, string> }; rules: unknown[] };
    expect(view.metadata.annotations).to.deep.equal({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    expect(view.metadata.labels).to.include({ 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    await waitFor(async () => ((await admin(`${rbac}/clusterroles/admin`)).body as { rules: unknown[] | null }).rules?.length ?? 0);
    const adminRole = (await admin(`${rbac}/clusterroles/admin`)).body as { rules: Array<{ resources?: string[] }> };
    expect(adminRole.rules.some((r) => r.resources?.includes('rolebindings'))).to.equal(true);
    expect(adminRole.rules.some((r) => r.resources?.includes('configmaps'))).to.equal(true);
    for (const name of ['cluster-admin', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:node',
      'system:kube-controller-manager', 'system:certificates.k8s.io:kube-apiserver-client-approver', 'system:controller:namespace-controller']) {
      expect((await admin(`${rbac}/clusterroles/${encodeURIComponent(name)}`)).status, name).to.equal(200);
    }
    const masters = (await admin(`${rbac}/clusterrolebindings/cluster-admin`)).body as { subjects: unknown[] };
    expect(masters.subjects).to.deep.equal([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }]);
    expect((await admin(`${rbac}/namespaces/kube-system/roles/extension-apiserver-authentication-reader`)).status).to.equal(200);
  });

  it('aggregation: an aggregated role follows the roles its selector matches; direct edits are overwritten', async () => {
    const agg = { metadata: { name: `${ns}-agg` }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${ns}/agg`]: 'true' } }] } };
    expect((await post(admin, `${rbac}/clusterroles`, agg)).status).to.equal(201);
    const part = { metadata: { name: `${ns}-part`, labels: { [`${ns}/agg`]: 'true' } }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }] };
    expect((await post(admin, `${rbac}/clusterroles`, part)).status).to.equal(201);
    // Rules come back in Go's field order (verbs first), whatever order they were sent in.
    const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : x));
    const sameRules = (a: unknown, b: unknown) => canonical(a) === canonical(b);
    const rulesOf = async () => ((await admin(`${rbac}/clusterroles/${ns}-agg`, {})).body as { rules: unknown[] | null }).rules;
    await waitFor(async () => sameRules(await rulesOf(), part.rules));
    const cur = (await admin(`${rbac}/clusterroles/${ns}-agg`)).body as Record<string, unknown>;
    expect((await admin(`${rbac}/clusterroles/${ns}-agg`, { method: 'PUT', body: { ...cur, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } })).status).to.equal(200);
    await waitFor(async () => sameRules(await rulesOf(), part.rules));
    expect((await admin(`${rbac}/clusterroles/${ns}-part`, { method: 'DELETE' })).status).to.equal(200);
    await waitFor(async () => ((await rulesOf()) ?? []).length === 0);
  });

  // Last of this suite's own tests: the restarted replica may have led the aggregation controller.
  it('bootstrap policy on restart: lost rules, subjects and APIService availability come back; autoupdate=false is left alone', async () => {
    type Obj = Record<string, unknown> & { metadata: { annotations?: Record<string, string> }; rules?: unknown[]; subjects?: unknown[]; status?: { conditions?: Array<Record<string, string>> } };
    const get = async (path: string) => (await admin(path)).body as Obj;
    const put = async (path: string, body: Obj) => expect((await admin(path, { method: 'PUT', body })).status, path).to.equal(200);
    const discovery = await get(`${rbac}/clusterroles/system:discovery`);
    const discoveryBinding = await get(`${rbac}/clusterrolebindings/system:discovery`);
    const heapster = await get(`${rbac}/clusterroles/system:heapster`);
    const apps = '/apis/apiregistration.k8s.io/v1/apiservices/v1.apps';
    await put(`${rbac}/clusterroles/system:discovery`, { ...discovery, rules: [] });
    await put(`${rbac}/clusterrolebindings/system:discovery`, { ...discoveryBinding, subjects: [] });
    await put(`${rbac}/clusterroles/system:heapster`, { ...heapster, metadata: { ...heapster.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] });
    const appsService = await get(apps);
    await put(`${apps}/status`, { ...appsService, status: { conditions: [{ type: 'Available', status: 'False', reason: 'Test', message: 'made unavailable by the test', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } });

    await cluster.stopReplica(1);
    await cluster.startReplica(1);
    // Upstream's reconciliation appends the missing rules broken down, one URL each.
    const urls = (role: Obj) => (role.rules as Array<{ verbs: string[]; nonResourceURLs: string[] }>).flatMap((r) => r.nonResourceURLs.map((u) => `${r.verbs.join()} ${u}`)).sort();
    expect(urls(await get(`${rbac}/clusterroles/system:discovery`))).to.deep.equal(urls(discovery));
    expect((await get(`${rbac}/clusterrolebindings/system:discovery`)).subjects).to.deep.equal(discoveryBinding.subjects);
    expect((await get(`${rbac}/clusterroles/system:heapster`)).rules ?? []).to.deep.equal([]);
    // The APIService's status is the elected availability controller's to restore, in
    // whichever replica now leads the apiserver loops: in its own time, not by readiness.
    const availability = async () => (await get(apps)).status?.conditions?.find((c) => c.type === 'Available')?.status;
    await waitFor(async () => (await availability()) === 'True', 20_000).catch(() => undefined);
    expect(await availability()).to.equal('True');
  });

  describe('access reviews', () => {
    it('SubjectAccessReview answers for another user, with the RBAC reason', async () => {
      const r = await post(admin, `${authz}/subjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user: 'bob', groups: ['devs'], resourceAttributes: { namespace: ns, verb: 'get', resource: 'configmaps' } } });
      expect(r.status).to.equal(201);
      expect((r.body as { status: unknown }).status).to.deep.equal({ allowed: true,
        reason: `RBAC: allowed by RoleBinding "bob-manager/${ns}" of Role "rbac-manager" to Group "devs"` });
      const no = await post(admin, `${authz}/subjectaccessreviews`, { spec: { user: 'bob', nonResourceAttributes: { path: '/metrics', verb: 'get' } } });
      expect((no.body as { status: unknown }).status).to.deep.equal({ allowed: false });
    });

    it('SubjectAccessReview reports evaluation errors of dangling bindings', async () => {
      expect((await post(admin, `${rbac}/namespaces/${other}/rolebindings`, { metadata: { name: 'dangling' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'nope' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'dave' }] })).status).to.equal(201);
      await waitFor(async () => {
        const r = await post(admin, `${authz}/subjectaccessreviews`, { spec: { user: 'dave', resourceAttributes: { namespace: other, verb: 'get', resource: 'pods' } } });
        return ((r.body as { status: { reason?: string } }).status.reason ?? '') === 'RBAC: role.rbac.authorization.k8s.io "nope" not found';
      });
    });

    it('validation: exactly one of the attribute kinds, and a user or group (422)', async () => {
      const r = await post(admin, `${authz}/subjectaccessreviews`, { spec: { user: 'x' } });
      expect(r.status).to.equal(422);
      expect((r.body as { message: string }).message).to.equal(
        'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
      const both = await post(admin, `${authz}/subjectaccessreviews`, { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/' } } });
      expect(both.status).to.equal(422);
      expect((both.body as { details: { causes: Array<{ field: string }> } }).details.causes.map((c) => c.field)).to.deep.equal(['spec.nonResourceAttributes', 'spec.user']);
    });

    it('LocalSubjectAccessReview: namespace defaulted from the path, a mismatch is 422', async () => {
      const ok = await post(admin, `${authz}/namespaces/${ns}/localsubjectaccessreviews`, { spec: { user: 'bob', groups: ['devs'], resourceAttributes: { verb: 'get', resource: 'configmaps' } } });
      expect(ok.status).to.equal(201);
      expect((ok.body as { status: { allowed: boolean } }).status.allowed).to.equal(true);
      expect((ok.body as { metadata: { namespace: string } }).metadata.namespace).to.equal(ns);
      const bad = await post(admin, `${authz}/namespaces/${ns}/localsubjectaccessreviews`, { spec: { user: 'bob', resourceAttributes: { namespace: other, verb: 'get', resource: 'configmaps' } } });
      expect(bad.status).to.equal(422);
      expect((bad.body as { message: string }).message).to.equal(
        `LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "${other}": must match metadata.namespace`);
    });

    it('SelfSubjectAccessReview: the caller is the subject, and anyone authenticated may ask', async () => {
      const r = await post(as('carol'), `${authz}/selfsubjectaccessreviews`, { spec: { resourceAttributes: { namespace: ns, verb: 'get', resource: 'configmaps', name: 'x' } } });
      expect(r.status).to.equal(201);
      expect((r.body as { status: { allowed: boolean } }).status.allowed).to.equal(true); // carol-cm-get
      const s = await post(as('carol'), `${authz}/selfsubjectaccessreviews`, { spec: { resourceAttributes: { namespace: other, verb: 'get', resource: 'configmaps' } } });
      expect((s.body as { status: { allowed: boolean } }).status.allowed).to.equal(false);
    });

    it('SelfSubjectRulesReview lists the caller\'s rules; no namespace is 400', async () => {
      const r = await post(as('carol'), `${authz}/selfsubjectrulesreviews`, { spec: { namespace: ns } });
      expect(r.status).to.equal(201);
      const status = (r.body as { status: { resourceRules: unknown[]; nonResourceRules: unknown[]; incomplete: boolean } }).status;
      expect(status.incomplete).to.equal(false);
      expect(status.resourceRules).to.deep.include({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] });
      expect(status.resourceRules).to.deep.include({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
      expect(status.nonResourceRules).to.deep.include({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
      const bad = await post(as('carol'), `${authz}/selfsubjectrulesreviews`, { spec: {} });
      expect(bad.status).to.equal(400);
      expect((bad.body as { message: string }).message).to.equal('no namespace on request');
    });
  });

  async function grant(name: string, rules: unknown[], user: string): Promise<void> {
    expect((await post(admin, `${rbac}/namespaces/${ns}/roles`, { metadata: { name }, rules })).status).to.equal(201);
    expect((await post(admin, `${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }] })).status).to.equal(201);
    // Writes are judged by replica 0's index: wait until it has the binding.
    await waitFor(async () => {
      const r = await post(admin, `${authz}/subjectaccessreviews`, { spec: { user, resourceAttributes: { namespace: ns, verb: (rules[0] as { verbs: string[] }).verbs[0], group: 'rbac.authorization.k8s.io', resource: (rules[0] as { resources: string[] }).resources[0], name: ((rules[0] as { resourceNames?: string[] }).resourceNames ?? [''])[0] } } });
      return (r.body as { status: { allowed: boolean } }).status.allowed;
    });
  }
});

async function waitFor(cond: () => Promise<unknown>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met in time');
}

async function waitAllowed(call: (p: string) => Promise<{ status: number }>, path: string): Promise<void> {
  await waitFor(async () => (await call(path)).status === 200);
}
