// DefaultStorageClass: a new PersistentVolumeClaim that asks for no class (no
// spec.storageClassName, not even "", and no beta class annotation) gets the default
// StorageClass, marked by the GA or the beta is-default-class annotation.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { newestDefaultClass } from '../../defaultclass.js';
import { waitForReady, type Lister } from '../../lister.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

export const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
const defaultAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export const isDefaultStorageClass = (c: KubeObject): boolean =>
  defaultAnnotations.some((k) => c.metadata.annotations?.[k] === 'true');

/** upstream's PersistentVolumeClaimHasClass: the beta annotation or the field, even when empty. */
export function claimHasClass(pvc: KubeObject): boolean {
  if (pvc.metadata.annotations && betaStorageClassAnnotation in pvc.metadata.annotations) return true;
  return isPlainObject(pvc.spec) && pvc.spec.storageClassName !== undefined && pvc.spec.storageClassName !== null;
}

export class DefaultStorageClass implements AdmissionPlugin {
  readonly name = 'DefaultStorageClass';
  readonly resources = new Set(['/persistentvolumeclaims']);
  constructor(private readonly storageClasses: Lister) {}

  handles(op: Operation): boolean {
    return op === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || !a.object) return;
    if (claimHasClass(a.object)) return;
    await waitForReady(a, this.storageClasses);
    const def = newestDefaultClass(this.storageClasses.list(), isDefaultStorageClass);
    if (!def) return;
    const spec = isPlainObject(a.object.spec) ? a.object.spec : (a.object.spec = {});
    spec.storageClassName = def.metadata.name;
  }
}
