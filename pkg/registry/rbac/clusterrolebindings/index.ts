// rbac.authorization.k8s.io/v1 clusterrolebindings.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { BindingStrategy } from '../rolebindings/strategy.js';
import { bindingTable } from '../rolebindings/table.js';

export const clusterrolebindings: ResourceDef = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  verbs: [...allVerbs],
  strategy: new BindingStrategy(false),
  table: bindingTable('clusterRoleBinding'),
};
