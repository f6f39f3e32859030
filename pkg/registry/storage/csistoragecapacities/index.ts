// storage.k8s.io/v1 csistoragecapacities (namespaced; upstream prints the default table).
import type { ResourceDef } from '../../rest/resource.js';
import { defaultTable } from '../../../runtime/table.js';
import { CSIStorageCapacityStrategy } from './strategy.js';

export const csistoragecapacities: ResourceDef = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIStorageCapacity',
  plural: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new CSIStorageCapacityStrategy(),
  table: defaultTable,
};
