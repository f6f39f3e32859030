// StorageObjectInUseProtection: every new PersistentVolumeClaim and PersistentVolume gets
// the protection finalizer, which the protection controllers lift once nothing uses it.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';

export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

const finalizerFor: Record<string, string> = {
  persistentvolumeclaims: pvcProtectionFinalizer,
  persistentvolumes: pvProtectionFinalizer,
};

export class StorageObjectInUseProtection implements AdmissionPlugin {
  readonly name = 'StorageObjectInUseProtection';
  readonly resources = new Set(Object.keys(finalizerFor).map((r) => `/${r}`));

  handles(op: Operation): boolean {
    return op === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const finalizer = a.group === '' && a.subresource === '' ? finalizerFor[a.resource] : undefined;
    if (!finalizer || !a.object) return;
    const meta = a.object.metadata;
    if (meta.finalizers?.includes(finalizer)) return;
    meta.finalizers = [...(meta.finalizers ?? []), finalizer];
  }
}
