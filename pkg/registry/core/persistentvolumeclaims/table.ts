// `kubectl get pvc`, as upstream's printer: capacity and access modes only once bound.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject } from '../../../runtime/object.js';
import { accessModesAsString, resourceList, storageClassOf } from '../../../apis/core/resources.js';

export const persistentVolumeClaimTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    column('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    column('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    column('Access Modes', 'string', 'accessModes contains the desired access modes the volume should have. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1'),
    column('StorageClass', 'string', 'storageClassName is the name of the StorageClass required by the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#class-1'),
    ageColumn(),
    column('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', { priority: 1 }),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const status = isPlainObject(obj.status) ? obj.status : {};
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    const volume = str(spec.volumeName);
    return [
      obj.metadata.name ?? '',
      obj.metadata.deletionTimestamp ? 'Terminating' : str(status.phase),
      volume,
      volume ? resourceList(status.capacity).storage ?? '0' : '',
      volume ? accessModesAsString(status.accessModes) : '',
      storageClassOf(obj),
      humanAge(obj.metadata.creationTimestamp),
      str(spec.volumeMode) || '<unset>',
    ];
  },
};
