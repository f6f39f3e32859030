import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { clusterrolebindings } from './clusterrolebindings/index.js';
import { clusterroles } from './clusterroles/index.js';
import { rolebindings } from './rolebindings/index.js';
import { roles } from './roles/index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const group = 'rbac.authorization.k8s.io';

describe('RBAC resources', () => {
  it('declare upstream discovery data and keys', () => {
    for (const [def, kind, plural, namespaced] of [
      [roles, 'Role', 'roles', true], [clusterroles, 'ClusterRole', 'clusterroles', false],
      [rolebindings, 'RoleBinding', 'rolebindings', true], [clusterrolebindings, 'ClusterRoleBinding', 'clusterrolebindings', false],
    ] as const) {
      expect(def).to.include({ group, version: 'v1', kind, plural, singular: kind.toLowerCase(), namespaced });
      expect(def.shortNames).to.equal(undefined);
      expect(def.verbs).to.deep.equal(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
      expect(def.strategy.allowCreateOnUpdate).to.equal(true);
    }
  });

  it('names are path segments', () => {
    expect(roles.strategy.validate({ metadata: { name: 'system:controller:x', namespace: 'ns' }, rules: [] }, {})).to.deep.equal([]);
    expect(render(clusterroles.strategy.validate({ metadata: { name: 'a%2F' } }, {}))).to.deep.equal([
      'metadata.name: Invalid value: "a%2F": may not contain \'%\'']);
  });

  it('a Role may not name non-resource URLs; a ClusterRole may', () => {
    const rules = [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }];
    expect(render(roles.strategy.validate({ metadata: { name: 'r', namespace: 'ns' }, rules }, {}))).to.deep.equal([
      'rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs']);
    expect(clusterroles.strategy.validate({ metadata: { name: 'r' }, rules }, {})).to.deep.equal([]);
  });

  it('stores a role without rules as rules: null', () => {
    const obj: KubeObject = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
    clusterroles.strategy.canonicalize(obj);
    expect(obj.rules).to.equal(null);
  });

  it('checks aggregation selectors, grandfathering bad values already stored', () => {
    const bad: KubeObject = { metadata: { name: 'agg', resourceVersion: '1' },
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['bad value'] }] }] } };
    const errs = render(clusterroles.strategy.validate(bad, {}));
    expect(errs[0]).to.match(/^aggregationRule\.clusterRoleSelectors\[0\]\.matchExpressions\[0\]\.values\[0\]: Invalid value: "bad value": a valid label/);
    expect(errs[1]).to.equal('aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.');
    const updated = render(clusterroles.strategy.validateUpdate(structuredClone(bad), bad, {}));
    expect(updated).to.deep.equal(['aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.']);
  });

  it('bindings default apiGroups and validate roleRef kinds by scope', () => {
    const rb: KubeObject = { metadata: { name: 'b', namespace: 'ns' }, roleRef: { kind: 'Role', name: 'r' },
      subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'default' }] };
    rolebindings.strategy.applyDefaults(rb);
    expect(rb.roleRef).to.deep.equal({ kind: 'Role', name: 'r', apiGroup: group });
    expect(rolebindings.strategy.validate(rb, {})).to.deep.equal([]);

    const crb: KubeObject = { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] };
    clusterrolebindings.strategy.applyDefaults(crb);
    expect(render(clusterrolebindings.strategy.validate(crb, {}))).to.deep.equal([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
  });

  it('roleRef cannot change', () => {
    const old: KubeObject = { metadata: { name: 'b', namespace: 'ns', resourceVersion: '3' },
      roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' }, subjects: [] };
    const changed = structuredClone(old);
    changed.roleRef = { apiGroup: group, kind: 'ClusterRole', name: 'admin' };
    expect(render(rolebindings.strategy.validateUpdate(changed, old, {}))).to.deep.equal([
      `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${group}", Kind:"ClusterRole", Name:"admin"}: cannot change roleRef`]);
    const subjectsOnly = structuredClone(old);
    subjectsOnly.subjects = [{ kind: 'Group', apiGroup: group, name: 'devs' }];
    expect(rolebindings.strategy.validateUpdate(subjectsOnly, old, {})).to.deep.equal([]);
  });

  it('tables: roles show a Created At date, bindings ROLE AGE and wide subjects', () => {
    expect(roles.table!.columns.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Created At', 'date']]);
    expect(clusterroles.table!.cells({ metadata: { name: 'view', creationTimestamp: '2024-03-01T10:00:00.5+02:00' } }))
      .to.deep.equal(['view', '2024-03-01T08:00:00Z']);
    expect(rolebindings.table!.columns.map((c) => [c.name, c.priority])).to.deep.equal(
      [['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
    expect(clusterrolebindings.table!.columns[3].description).to.equal('Users in the clusterRoleBinding');
    expect(rolebindings.table!.cells({ metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'User', name: 'a' }, { kind: 'User', name: 'b' }, { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' }] }))
      .to.deep.equal(['b', 'ClusterRole/edit', '<unknown>', 'a, b', 'g', 'ns/sa']);
  });
});
