// LimitPodHardAntiAffinityTopology: required pod anti-affinity may only spread pods
// across nodes (kubernetes.io/hostname); wider topologies let one pod block a whole
// zone for everyone else.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { arr, obj, str } from '../../../apis/core/types.js';
import { errors } from '../../../runtime/errors.js';

const hostnameKey = 'kubernetes.io/hostname';

export class LimitPodHardAntiAffinityTopology implements AdmissionPlugin {
  readonly name = 'LimitPodHardAntiAffinityTopology';

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object) return;
    const anti = obj(obj(obj(a.object.spec)?.affinity)?.podAntiAffinity);
    for (const term of arr(anti?.requiredDuringSchedulingIgnoredDuringExecution)) {
      const key = str(term.topologyKey);
      if (key !== hostnameKey) {
        throw errors.forbidden({ group: a.group, resource: a.resource }, a.object.metadata.name ?? '',
          `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${hostnameKey} is allowed`);
      }
    }
  }
}
