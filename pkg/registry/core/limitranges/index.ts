// core/v1 limitranges.
import type { ResourceDef } from '../../rest/resource.js';
import { defaultTable } from '../../../runtime/table.js';
import { LimitRangeStrategy } from './strategy.js';

export const limitranges: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  plural: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new LimitRangeStrategy(),
  // Upstream has no printer for LimitRange: the default Name / Created At table.
  table: defaultTable,
};
