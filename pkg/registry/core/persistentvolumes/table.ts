// `kubectl get pv`, as upstream's printer.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject } from '../../../runtime/object.js';
import { accessModesAsString, resourceList, storageClassOf } from '../../../apis/core/resources.js';

export const persistentVolumeTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Capacity', 'string', 'capacity is the description of the persistent volume\'s resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity'),
    column('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes'),
    column('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming'),
    column('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase'),
    column('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding'),
    column('StorageClass', 'string', 'storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.'),
    column('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.'),
    ageColumn(),
    column('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.', { priority: 1 }),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const status = isPlainObject(obj.status) ? obj.status : {};
    const ref = isPlainObject(spec.claimRef) ? spec.claimRef : undefined;
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    return [
      obj.metadata.name ?? '',
      resourceList(spec.capacity).storage ?? '0',
      accessModesAsString(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      obj.metadata.deletionTimestamp ? 'Terminating' : str(status.phase),
      ref ? `${str(ref.namespace)}/${str(ref.name)}` : '',
      storageClassOf(obj),
      str(status.reason),
      humanAge(obj.metadata.creationTimestamp),
      str(spec.volumeMode) || '<unset>',
    ];
  },
};
