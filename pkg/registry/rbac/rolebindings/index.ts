// rbac.authorization.k8s.io/v1 rolebindings.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { BindingStrategy } from './strategy.js';
import { bindingTable } from './table.js';

export const rolebindings: ResourceDef = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new BindingStrategy(true),
  table: bindingTable('roleBinding'),
};
