// core/v1 resourcequotas, with the status subresource.
import type { ResourceDef } from '../../rest/resource.js';
import { ResourceQuotaStrategy } from './strategy.js';
import { resourceQuotaTable } from './table.js';

export const resourcequotas: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  shortNames: ['quota'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', kind: 'ResourceQuota', verbs: ['get', 'patch', 'update'] }],
  strategy: new ResourceQuotaStrategy(),
  table: resourceQuotaTable,
};
