import { expect } from 'chai';
import type { Attributes } from '../interfaces.js';
import { RBACAuthorizer } from './authorizer.js';
import { compactRules, compactString, covers } from './covers.js';
import { confirmNoEscalation } from './escalation.js';
import { PolicyIndex, type PolicyObjects } from './index.js';
import { RBACRuleResolver } from './resolver.js';
import { ruleAllows } from './rules.js';
import type { BindingObject, PolicyRule } from './types.js';

const g = 'rbac.authorization.k8s.io';
const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };

function res(verb: string, resource: string, o: Partial<Attributes> = {}): Attributes {
  return { user: alice, verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1',
    resource, subresource: '', name: '', ...o };
}
function nonRes(verb: string, path: string): Attributes {
  return { user: alice, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '',
    resource: '', subresource: '', name: '' };
}

describe('RBAC rule matching (SPEC 2.3)', () => {
  const cases: Array<[string, PolicyRule, Attributes, boolean]> = [
    ['exact verb, group, resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', 'pods'), true],
    ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('list', 'pods'), false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('deletecollection', 'pods'), true],
    ['other group', { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, res('get', 'pods'), false],
    ['group *', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res('get', 'deployments', { apiGroup: 'apps' }), true],
    ['any listed group', { verbs: ['get'], apiGroups: ['x', 'apps'], resources: ['deployments'] }, res('get', 'deployments', { apiGroup: 'apps' }), true],
    ['resource *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', 'secrets'), true],
    ['resource * covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', 'pods', { subresource: 'log', name: 'p' }), true],
    ['parent does not grant subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', 'pods', { subresource: 'log', name: 'p' }), false],
    ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', 'pods', { subresource: 'log', name: 'p' }), true],
    ['subresource rule does not grant parent', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', 'pods', { name: 'p' }), false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, res('update', 'deployments', { apiGroup: 'apps', subresource: 'scale', name: 'd' }), true],
    ['*/subresource other sub', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, res('update', 'deployments', { apiGroup: 'apps', subresource: 'status', name: 'd' }), false],
    ['*/subresource never the parent', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, res('get', 'deployments', { apiGroup: 'apps', name: 'd' }), false],
    ['resourceNames match', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('get', 'configmaps', { name: 'a' }), true],
    ['resourceNames other', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('get', 'configmaps', { name: 'b' }), false],
    ['resourceNames never match unnamed requests', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('list', 'configmaps'), false],
    ['resourceNames and create (no name)', { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('create', 'configmaps'), false],
    ['empty resourceNames mean all', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] }, res('get', 'configmaps', { name: 'z' }), true],
    ['non-resource exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonRes('get', '/healthz'), true],
    ['non-resource other path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonRes('get', '/healthz/etcd'), false],
    ['non-resource trailing *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, nonRes('get', '/healthz/etcd'), true],
    ['non-resource prefix*', { verbs: ['get'], nonResourceURLs: ['/api*'] }, nonRes('get', '/apis/x'), true],
    ['non-resource * alone', { verbs: ['get'], nonResourceURLs: ['*'] }, nonRes('get', '/anything'), true],
    ['non-resource verb', { verbs: ['get'], nonResourceURLs: ['*'] }, nonRes('post', '/anything'), false],
    ['resource rule never grants a path', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, nonRes('get', '/version'), false],
    ['URL rule never grants a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, res('get', 'pods'), false],
  ];
  for (const [name, rule, attrs, want] of cases) {
    it(`${name} -> ${want}`, () => { expect(ruleAllows(attrs, rule)).to.equal(want); });
  }
});

function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, ref: [string, string], subjects: BindingObject['subjects'], ns?: string): BindingObject {
  return { kind, metadata: { name, ...(ns ? { namespace: ns } : {}) }, roleRef: { apiGroup: g, kind: ref[0], name: ref[1] }, subjects };
}

function authorizer(o: PolicyObjects): RBACAuthorizer {
  return new RBACAuthorizer(new RBACRuleResolver(PolicyIndex.fromObjects(o)));
}

describe('RBAC bindings and scopes (SPEC 2.3)', () => {
  const policy: PolicyObjects = {
    roles: [{ metadata: { name: 'pod-reader', namespace: 'ns' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }],
    clusterRoles: [
      { metadata: { name: 'cm-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] },
      { metadata: { name: 'urls' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] },
    ],
    roleBindings: [
      binding('RoleBinding', 'rb-role', ['Role', 'pod-reader'], [{ kind: 'User', apiGroup: g, name: 'alice' }], 'ns'),
      binding('RoleBinding', 'rb-cr', ['ClusterRole', 'cm-reader'], [{ kind: 'Group', apiGroup: g, name: 'devs' }], 'ns'),
      binding('RoleBinding', 'rb-sa', ['ClusterRole', 'cm-reader'], [{ kind: 'ServiceAccount', name: 'robot' }], 'sa-ns'),
      binding('RoleBinding', 'rb-urls', ['ClusterRole', 'urls'], [{ kind: 'User', apiGroup: g, name: 'alice' }], 'ns'),
    ],
    clusterRoleBindings: [
      binding('ClusterRoleBinding', 'crb', ['ClusterRole', 'cm-reader'], [{ kind: 'User', apiGroup: g, name: 'carol' }]),
      binding('ClusterRoleBinding', 'crb-sa', ['ClusterRole', 'urls'], [{ kind: 'ServiceAccount', name: 'mon', namespace: 'tools' }]),
    ],
  };
  const a = authorizer(policy);

  it('a Role grants in its namespace only', async () => {
    expect((await a.authorize(res('get', 'pods'))).decision).to.equal('allow');
    expect((await a.authorize(res('get', 'pods', { namespace: 'other' }))).decision).to.equal('noOpinion');
  });

  it('the allow reason names the binding, role and subject as upstream', async () => {
    expect((await a.authorize(res('get', 'pods'))).reason).to.equal('RBAC: allowed by RoleBinding "rb-role/ns" of Role "pod-reader" to User "alice"');
    const d = await a.authorize(res('list', 'configmaps'));
    expect(d.reason).to.equal('RBAC: allowed by RoleBinding "rb-cr/ns" of ClusterRole "cm-reader" to Group "devs"');
  });

  it('a ClusterRole through a RoleBinding applies in the binding namespace only', async () => {
    expect((await a.authorize(res('list', 'configmaps', { namespace: 'other' }))).decision).to.equal('noOpinion');
    expect((await a.authorize(res('list', 'configmaps', { namespace: '' }))).decision).to.equal('noOpinion');
  });

  it('a ClusterRoleBinding grants everywhere, including cluster scope', async () => {
    const carol = { name: 'carol', groups: [] };
    expect((await a.authorize(res('get', 'configmaps', { user: carol, namespace: 'x' }))).decision).to.equal('allow');
    expect((await a.authorize(res('list', 'configmaps', { user: carol, namespace: '' }))).decision).to.equal('allow');
  });

  it('non-resource URLs apply only through a ClusterRoleBinding', async () => {
    expect((await a.authorize(nonRes('get', '/metrics'))).decision).to.equal('noOpinion');
    const mon = { name: 'system:serviceaccount:tools:mon', groups: [] };
    expect((await a.authorize({ ...nonRes('get', '/metrics'), user: mon })).reason)
      .to.equal('RBAC: allowed by ClusterRoleBinding "crb-sa" of ClusterRole "urls" to ServiceAccount "mon/tools"');
  });

  it('a ServiceAccount subject matches system:serviceaccount:<ns>:<name>, defaulting to the binding namespace', async () => {
    const robot = { name: 'system:serviceaccount:sa-ns:robot', groups: [] };
    expect((await a.authorize(res('get', 'configmaps', { user: robot, namespace: 'sa-ns' }))).decision).to.equal('allow');
    const impostor = { name: 'system:serviceaccount:other:robot', groups: [] };
    expect((await a.authorize(res('get', 'configmaps', { user: impostor, namespace: 'sa-ns' }))).decision).to.equal('noOpinion');
  });

  it('subject names are case-sensitive', async () => {
    expect((await a.authorize(res('get', 'pods', { user: { name: 'Alice', groups: [] } }))).decision).to.equal('noOpinion');
  });

  it('an unresolvable roleRef is an error, not a grant', async () => {
    const b = authorizer({ roleBindings: [binding('RoleBinding', 'dangling', ['Role', 'gone'], [{ kind: 'User', apiGroup: g, name: 'alice' }], 'ns')] });
    const d = await b.authorize(res('get', 'pods'));
    expect(d).to.deep.equal({ decision: 'noOpinion', reason: 'RBAC: role.rbac.authorization.k8s.io "gone" not found' });
  });

  it('an unknown subject kind and a namespaced User subject are errors, not grants', async () => {
    const b = authorizer({
      clusterRoles: policy.clusterRoles,
      roleBindings: [
        binding('RoleBinding', 'odd', ['ClusterRole', 'cm-reader'], [{ kind: 'Robot', name: 'alice' }], 'ns'),
        binding('RoleBinding', 'nsuser', ['ClusterRole', 'cm-reader'], [{ kind: 'User', apiGroup: g, name: 'alice', namespace: 'ns' }], 'ns'),
      ],
    });
    const d = await b.authorize(res('get', 'configmaps'));
    expect(d.decision).to.equal('noOpinion');
    expect(d.reason).to.equal('RBAC: [User subject "alice" must not have a namespace (found "ns"), unknown subject kind "Robot" for subject "alice"]');
  });

  it('errors do not stop another binding from allowing', async () => {
    const b = authorizer({
      clusterRoles: policy.clusterRoles,
      roleBindings: [
        binding('RoleBinding', 'dangling', ['Role', 'gone'], [{ kind: 'User', apiGroup: g, name: 'alice' }], 'ns'),
        binding('RoleBinding', 'ok', ['ClusterRole', 'cm-reader'], [{ kind: 'User', apiGroup: g, name: 'alice' }], 'ns'),
      ],
    });
    expect((await b.authorize(res('get', 'configmaps'))).decision).to.equal('allow');
  });

  it('rulesFor lists resource and non-resource rules with errors', async () => {
    const r = await a.rulesFor(alice, 'ns');
    expect(r.resourceRules).to.deep.include({ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] });
    expect(r.nonResourceRules).to.deep.equal([{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
    expect(r.incomplete).to.equal(false);
  });
});

describe('RBAC escalation comparison', () => {
  it('covers breaks rules into atoms and reports the missing ones', () => {
    const owner: PolicyRule[] = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', '*/status'] }];
    expect(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/status'] }]).covered).to.equal(true);
    const r = covers(owner, [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }]);
    expect(r.missing).to.deep.equal([{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }]);
    expect(covers([{ verbs: ['get'], apiGroups: [''], resources: ['cm'], resourceNames: ['a'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['cm'] }]).covered).to.equal(false);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/logs/x'] }]).covered).to.equal(true);
  });

  it('compacts missing atoms by verb and prints them as upstream', () => {
    const c = compactRules([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
    expect(c.map(compactString)).to.deep.equal(['{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}']);
  });

  it('confirmNoEscalation words the refusal as upstream', () => {
    const idx = PolicyIndex.fromObjects({
      clusterRoles: [{ metadata: { name: 'r' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }],
      clusterRoleBindings: [binding('ClusterRoleBinding', 'b', ['ClusterRole', 'r'], [{ kind: 'User', apiGroup: g, name: 'alice' }])],
    });
    const resolver = new RBACRuleResolver(idx);
    expect(confirmNoEscalation(resolver, alice, 'ns', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])).to.equal(undefined);
    expect(confirmNoEscalation(resolver, alice, 'ns', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods', 'secrets'] }]))
      .to.equal('user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
        + '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}');
  });
});
