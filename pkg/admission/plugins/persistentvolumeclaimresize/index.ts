// PersistentVolumeClaimResize: growing spec.resources.requests.storage is allowed only on a
// bound claim whose (unchanged) StorageClass sets allowVolumeExpansion: true.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { waitForReady, type Lister } from '../../lister.js';
import { parseQuantity } from '../../../apis/core/quantity.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { betaStorageClassAnnotation } from '../defaultstorageclass/index.js';

function requestedStorage(pvc: KubeObject): number {
  const spec = isPlainObject(pvc.spec) ? pvc.spec : {};
  const resources = isPlainObject(spec.resources) ? spec.resources : {};
  const requests = isPlainObject(resources.requests) ? resources.requests : {};
  return parseQuantity(requests.storage) ?? 0;
}

/** upstream's GetPersistentVolumeClaimClass: the beta annotation wins over the field. */
function claimClass(pvc: KubeObject): string {
  const beta = pvc.metadata.annotations?.[betaStorageClassAnnotation];
  if (beta !== undefined) return beta;
  const name = isPlainObject(pvc.spec) ? pvc.spec.storageClassName : undefined;
  return typeof name === 'string' ? name : '';
}

export class PersistentVolumeClaimResize implements AdmissionPlugin {
  readonly name = 'PersistentVolumeClaimResize';
  readonly resources = new Set(['/persistentvolumeclaims']);
  constructor(private readonly storageClasses: Lister) {}

  handles(op: Operation): boolean {
    return op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || !a.object || !a.oldObject) return;
    if (requestedStorage(a.object) <= requestedStorage(a.oldObject)) return;
    const oldPhase = isPlainObject(a.oldObject.status) ? a.oldObject.status.phase : undefined;
    if (oldPhase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
    if (!(await this.allowResize(a, a.object, a.oldObject))) {
      throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    }
  }

  private async allowResize(a: AdmissionAttributes, pvc: KubeObject, old: KubeObject): Promise<boolean> {
    const cls = claimClass(pvc);
    if (cls === '' || cls !== claimClass(old)) return false;
    await waitForReady(a, this.storageClasses);
    return this.storageClasses.get('', cls)?.allowVolumeExpansion === true;
  }
}
