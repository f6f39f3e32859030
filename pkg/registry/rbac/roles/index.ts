// rbac.authorization.k8s.io/v1 roles.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { RoleStrategy } from './strategy.js';
import { roleTable } from './table.js';

export const roles: ResourceDef = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new RoleStrategy(),
  table: roleTable,
};
