// ExtendedResourceToleration: a pod that requests an extended resource (say
// example.com/gpu) tolerates the NoSchedule taint of that name, so operators can taint
// the nodes carrying the device and keep other pods off them.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { isQualifiedName } from '../../../apis/validation/names.js';
import { arr, obj } from '../../../apis/core/types.js';
import { addOrUpdateToleration } from '../../../util/tolerations/tolerations.js';

/** helper.IsExtendedResourceName: a prefixed name outside kubernetes.io that quota can name. */
export function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

export class ExtendedResourceToleration implements AdmissionPlugin {
  readonly name = 'ExtendedResourceToleration';

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== '' || a.resource !== 'pods') return;
    const spec = obj(a.object?.spec);
    if (!spec) return;
    const names = new Set<string>();
    for (const c of [...arr(spec.containers), ...arr(spec.initContainers)]) {
      for (const r of Object.keys(obj(obj(c.resources)?.requests) ?? {})) if (isExtendedResourceName(r)) names.add(r);
    }
    // Sorted, so the added tolerations come out in a stable order.
    for (const key of [...names].sort()) addOrUpdateToleration(spec, { key, operator: 'Exists', effect: 'NoSchedule' });
  }
}
