// storage.k8s.io/v1 storageclasses.
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { StorageClassStrategy } from './strategy.js';

const defaultClassAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

const storageClassTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    column('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
    column('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.'),
    column('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    ageColumn(),
  ],
  cells: (obj) => {
    const isDefault = defaultClassAnnotations.some((a) => obj.metadata.annotations?.[a] === 'true');
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    return [
      `${obj.metadata.name ?? ''}${isDefault ? ' (default)' : ''}`,
      str(obj.provisioner),
      str(obj.reclaimPolicy) || 'Delete',
      str(obj.volumeBindingMode) || 'Immediate',
      obj.allowVolumeExpansion === true,
      humanAge(obj.metadata.creationTimestamp),
    ];
  },
};

export const storageclasses: ResourceDef = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  plural: 'storageclasses',
  singular: 'storageclass',
  shortNames: ['sc'],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new StorageClassStrategy(),
  table: storageClassTable,
};
