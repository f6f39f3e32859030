import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import {
  defaultBinding, validateAggregationRule, validatePolicyRule, validateRoleRef, validateRoleRefUnchanged, validateSubject,
} from './rbac.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));

describe('RBAC validation', () => {
  const ruleCases: Array<[string, Parameters<typeof validatePolicyRule>[0], boolean, string[]]> = [
    ['resource rule ok', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, true, []],
    ['no verbs', { apiGroups: [''], resources: ['pods'] }, true, ['rules[0].verbs: Required value: verbs must contain at least one value']],
    ['no groups or resources', { verbs: ['get'] }, false, [
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource']],
    ['non-resource in a Role', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, true,
      ['rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs']],
    ['mixed rule', { verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }, false,
      ['rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs']],
    ['non-resource in a ClusterRole', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, false, []],
  ];
  for (const [name, rule, namespaced, want] of ruleCases) {
    it(`policy rule: ${name}`, () => expect(render(validatePolicyRule(rule, namespaced, 'rules[0]'))).to.deep.equal(want));
  }

  it('roleRef: group, kind and name', () => {
    expect(render(validateRoleRef({ apiGroup: 'x', kind: 'Role', name: '' }, ['ClusterRole']))).to.deep.equal([
      'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'roleRef.name: Required value',
    ]);
    expect(render(validateRoleRef({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a/b' }, ['Role', 'ClusterRole'])))
      .to.deep.equal(['roleRef.name: Invalid value: "a/b": may not contain \'/\'']);
  });

  it('subjects: kinds, groups and namespaces', () => {
    expect(render(validateSubject({ kind: 'ServiceAccount', name: 'Bad', apiGroup: 'x' }, false, 'subjects[0]'))).to.deep.equal([
      'subjects[0].name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
      'subjects[0].apiGroup: Unsupported value: "x": supported values: ""',
      'subjects[0].namespace: Required value',
    ]);
    expect(render(validateSubject({ kind: 'ServiceAccount', name: 'sa' }, true, 'subjects[0]'))).to.deep.equal([]);
    expect(render(validateSubject({ kind: 'User', name: 'alice' }, true, 'subjects[1]'))).to.deep.equal([
      'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"']);
    expect(render(validateSubject({ kind: 'Robot', name: 'r' }, true, 'subjects[2]'))).to.deep.equal([
      'subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"']);
  });

  it('defaults roleRef and User/Group subjects to the RBAC group', () => {
    const b: Record<string, unknown> = { subjects: [{ kind: 'User', name: 'a' }, { kind: 'ServiceAccount', name: 's' }] };
    defaultBinding(b);
    expect(b).to.deep.equal({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io' },
      subjects: [{ kind: 'User', name: 'a', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 's' }],
    });
  });

  it('roleRef may not change', () => {
    const ref = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
    expect(validateRoleRefUnchanged(ref, { ...ref })).to.deep.equal([]);
    expect(render(validateRoleRefUnchanged({ ...ref, name: 'edit' }, ref))).to.deep.equal([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef']);
  });

  it('aggregationRule needs selectors, each valid', () => {
    expect(render(validateAggregationRule({ clusterRoleSelectors: [] }, false))).to.deep.equal([
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
    const errs = render(validateAggregationRule({ clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In' }] }] }, false));
    expect(errs).to.deep.equal([
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
    ]);
    expect(validateAggregationRule({ clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] }, false))
      .to.deep.equal([]);
  });
});
