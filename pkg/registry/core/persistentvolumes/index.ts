// core/v1 persistentvolumes, with the status subresource.
import type { ResourceDef } from '../../rest/resource.js';
import { PersistentVolumeStrategy } from './strategy.js';
import { persistentVolumeTable } from './table.js';

export const persistentvolumes: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  singular: 'persistentvolume',
  shortNames: ['pv'],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', kind: 'PersistentVolume', verbs: ['get', 'patch', 'update'] }],
  strategy: new PersistentVolumeStrategy(),
  table: persistentVolumeTable,
};
