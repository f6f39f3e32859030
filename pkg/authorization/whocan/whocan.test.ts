// Exactness of who-can: for random roles, bindings and subjects, the locator's answer is
// the set of subjects a SubjectAccessReview allows (the privileged group and RBAC, as a
// server with --authorization-mode=RBAC decides), found by asking the authorizer about
// every subject named anywhere.
import { expect } from 'chai';
import fc from 'fast-check';
import { privilegedGroups } from '../always/index.js';
import type { Attributes } from '../interfaces.js';
import { RBACAuthorizer } from '../rbac/authorizer.js';
import { PolicyIndex, type PolicyObjects } from '../rbac/index.js';
import { RBACRuleResolver } from '../rbac/resolver.js';
import type { BindingObject, PolicyRule, Subject } from '../rbac/types.js';
import { UnionAuthorizer } from '../union/index.js';
import type { Action } from './interfaces.js';
import { alwaysAllowLocator, cannotEnumerate, privilegedGroupsLocator } from './modes.js';
import { RBACSubjectLocator } from './rbac.js';
import { UnionSubjectLocator } from './union.js';

const namespaces = ['n0', 'n1'];
const users = ['u0', 'u1', 'u2', 'system:serviceaccount:n0:sa0'];
const groups = ['g0', 'g1', 'g2', 'system:authenticated'];
const accounts = ['sa0', 'sa1'];
const clusterRoleNames = ['cr0', 'cr1', 'cr2', 'cr3'];
const roleNames = ['r0', 'r1'];
const rbac = 'rbac.authorization.k8s.io';

const subset = <T>(xs: T[]) => fc.subarray(xs, { minLength: 1 });
const rule: fc.Arbitrary<PolicyRule> = fc.oneof(
  fc.record({
    verbs: subset(['get', 'list', 'create', 'update', '*']),
    apiGroups: subset(['', 'apps', '*']),
    resources: subset(['pods', 'deployments', 'pods/log', 'deployments/scale', '*', '*/scale']),
    resourceNames: fc.oneof(fc.constant([] as string[]), subset(['a', 'b'])),
  }),
  fc.record({ verbs: subset(['get', 'post', '*']), nonResourceURLs: subset(['/healthz', '/api/*', '/api', '*']) }),
);
const rules = fc.array(rule, { minLength: 1, maxLength: 4 });

const subject: fc.Arbitrary<Subject> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('User'), apiGroup: fc.constant(rbac), name: fc.constantFrom(...users) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('Group'), apiGroup: fc.constant(rbac), name: fc.constantFrom(...groups, 'system:masters') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constantFrom(...accounts), namespace: fc.constantFrom('', ...namespaces) }) },
  // Subjects the authorizer cannot evaluate: they must grant nothing here either.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('User'), apiGroup: fc.constant(rbac), name: fc.constantFrom(...users), namespace: fc.constant('n0') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('Robot'), name: fc.constant('r2d2') }) },
);

const binding = (kind: string, namespace?: string): fc.Arbitrary<BindingObject> => fc.record({
  name: fc.string({ minLength: 1, maxLength: 6 }),
  roleKind: namespace ? fc.constantFrom('Role', 'ClusterRole') : fc.constant('ClusterRole'),
  roleName: fc.constantFrom(...clusterRoleNames, ...roleNames, 'missing'),
  subjects: fc.array(subject, { maxLength: 4 }),
}).map((b) => ({
  apiVersion: `${rbac}/v1`, kind, metadata: { name: b.name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: rbac, kind: b.roleKind, name: b.roleName }, subjects: b.subjects,
}));

const policy: fc.Arbitrary<PolicyObjects> = fc.record({
  clusterRoles: fc.array(fc.record({ name: fc.constantFrom(...clusterRoleNames), rules }), { minLength: 2, maxLength: 6 })
    .map((rs) => rs.map((r) => ({ metadata: { name: r.name }, rules: r.rules }))),
  roles: fc.array(fc.record({ ns: fc.constantFrom(...namespaces), name: fc.constantFrom(...roleNames), rules }), { maxLength: 3 })
    .map((rs) => rs.map((r) => ({ metadata: { name: r.name, namespace: r.ns }, rules: r.rules }))),
  clusterRoleBindings: fc.array(binding('ClusterRoleBinding'), { minLength: 1, maxLength: 5 }),
  roleBindings: fc.array(fc.constantFrom(...namespaces).chain((ns) => binding('RoleBinding', ns)), { maxLength: 6 }),
});

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    verb: fc.constantFrom('get', 'list', 'create', 'update', 'delete'), apiGroup: fc.constantFrom('', 'apps'),
    resource: fc.constantFrom('pods', 'deployments', 'configmaps'), subresource: fc.constantFrom('', '', 'log', 'scale'),
    name: fc.constantFrom('', 'a', 'b'), namespace: fc.constantFrom('', ...namespaces),
  }).map((a) => ({ ...a, isResourceRequest: true, path: '', apiVersion: 'v1' })),
  fc.record({ verb: fc.constantFrom('get', 'post'), path: fc.constantFrom('/healthz', '/api', '/api/v1', '/version') })
    .map((a) => ({ ...a, isResourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' })),
);

/** Every user and group any binding names, and strangers no binding names. */
function candidates(p: PolicyObjects): { users: Set<string>; groups: Set<string> } {
  const us = new Set([...users, 'stranger']);
  const gs = new Set([...groups, 'system:masters', 'strangers']);
  for (const b of [...p.clusterRoleBindings ?? [], ...p.roleBindings ?? []]) {
    for (const s of b.subjects ?? []) {
      if (s.kind === 'User') us.add(s.name ?? '');
      if (s.kind === 'Group') gs.add(s.name ?? '');
      if (s.kind === 'ServiceAccount') for (const ns of namespaces) us.add(`system:serviceaccount:${ns}:${s.name}`);
    }
  }
  return { users: us, groups: gs };
}

async function bruteForce(p: PolicyObjects, a: Action): Promise<{ users: string[]; groups: string[] }> {
  const sar = new UnionAuthorizer([privilegedGroups, new RBACAuthorizer(new RBACRuleResolver(PolicyIndex.fromObjects(p)))]);
  const allowed = async (user: Attributes['user']) => (await sar.authorize({ ...a, user })).decision === 'allow';
  const c = candidates(p);
  const out = { users: [] as string[], groups: [] as string[] };
  for (const u of c.users) if (await allowed({ name: u, groups: [] })) out.users.push(u);
  for (const g of c.groups) if (await allowed({ name: 'nobody-in-particular', groups: [g] })) out.groups.push(g);
  return { users: out.users.sort(), groups: out.groups.sort() };
}

describe('who-can (subject locator)', () => {
  it('answers exactly the subjects a SubjectAccessReview allows (1,000 random policies and actions)', async () => {
    let nonTrivial = 0;
    await fc.assert(fc.asyncProperty(policy, action, async (p, a) => {
      const index = PolicyIndex.fromObjects(p);
      const locator = new UnionSubjectLocator([privilegedGroupsLocator, new RBACSubjectLocator(index, new RBACRuleResolver(index))]);
      const got = await locator.allowedSubjects(a);
      const want = await bruteForce(p, a);
      expect({ users: [...got.users].sort(), groups: [...got.groups].sort() }).to.deep.equal(want);
      if (want.users.length + want.groups.length > 1) nonTrivial++;
    }), { numRuns: 1000 });
    // The generators must produce grants, not only system:masters: otherwise the test proves little.
    expect(nonTrivial).to.be.greaterThan(250);
  });

  it('reports a missing role and subjects it cannot evaluate', async () => {
    const index = PolicyIndex.fromObjects({
      clusterRoleBindings: [
        { metadata: { name: 'gone' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'nope' }, subjects: [{ kind: 'User', name: 'x' }] },
      ],
      clusterRoles: [{ metadata: { name: 'all' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] }],
      roleBindings: [{ metadata: { name: 'b', namespace: 'n0' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'all' },
        subjects: [{ kind: 'User', name: 'y', namespace: 'n0' }, { kind: 'ServiceAccount', name: 'sa' }, { kind: 'Group', name: 'g' }] }],
    });
    const got = new RBACSubjectLocator(index, new RBACRuleResolver(index)).locate({
      verb: 'get', isResourceRequest: true, path: '', namespace: 'n0', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '',
    });
    expect([...got.users]).to.deep.equal(['system:serviceaccount:n0:sa']);
    expect([...got.groups]).to.deep.equal(['g']);
    expect(got.errors).to.deep.equal([
      'clusterrole.rbac.authorization.k8s.io "nope" not found', 'User subject "y" must not have a namespace (found "n0")',
    ]);
  });
});

describe('who-can through the modes in order', () => {
  const action: Action = { verb: 'get', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '' };

  it('names the modes that cannot enumerate whom they allow', async () => {
    const got = await new UnionSubjectLocator([privilegedGroupsLocator, cannotEnumerate('Webhook'), cannotEnumerate('ABAC')]).allowedSubjects(action);
    expect([...got.groups]).to.deep.equal(['system:masters']);
    expect(got.errors).to.deep.equal(['the Webhook authorizer cannot list the subjects it allows', 'the ABAC authorizer cannot list the subjects it allows']);
  });

  it('AlwaysAllow answers everyone (both groups) and ends the walk', async () => {
    const got = await new UnionSubjectLocator([privilegedGroupsLocator, alwaysAllowLocator, cannotEnumerate('Webhook')]).allowedSubjects(action);
    expect([...got.groups].sort()).to.deep.equal(['system:authenticated', 'system:masters', 'system:unauthenticated']);
    expect(got.errors).to.deep.equal([]);
  });
});
