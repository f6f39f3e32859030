// core/v1 persistentvolumeclaims, with the status subresource.
import type { ResourceDef } from '../../rest/resource.js';
import { PersistentVolumeClaimStrategy } from './strategy.js';
import { persistentVolumeClaimTable } from './table.js';

export const persistentvolumeclaims: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', kind: 'PersistentVolumeClaim', verbs: ['get', 'patch', 'update'] }],
  strategy: new PersistentVolumeClaimStrategy(),
  table: persistentVolumeClaimTable,
};
