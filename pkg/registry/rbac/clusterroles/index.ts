// rbac.authorization.k8s.io/v1 clusterroles.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { roleTable } from '../roles/table.js';
import { ClusterRoleStrategy } from './strategy.js';

export const clusterroles: ResourceDef = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRole',
  plural: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  verbs: [...allVerbs],
  strategy: new ClusterRoleStrategy(),
  table: roleTable,
};
