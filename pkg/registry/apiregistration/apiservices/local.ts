// The APIService objects kube-aggregator's autoregister controller keeps for the group
// versions the server itself serves ("Local": no service, always available), so that
// `kubectl get apiservices` lists every built-in group version as upstream does.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import type { ResourceScheme } from '../../rest/resource-scheme.js';
import { groupPriority, versionPriority } from '../../../apis/apiregistration/priorities.js';

/** The label upstream marks objects registered at start with. */
export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

/** One APIService per served group version; the aggregator's own group has none. */
export function localAPIServices(scheme: ResourceScheme): KubeObject[] {
  const out: KubeObject[] = [];
  for (const group of scheme.groups()) {
    if (group === 'apiregistration.k8s.io') continue;
    for (const version of scheme.versionsOf(group)) {
      out.push({
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: `${version}.${group}`, labels: { [automanagedLabel]: 'onstart' } },
        spec: { group, version, groupPriorityMinimum: groupPriority(group), versionPriority: versionPriority(group, version) },
      });
    }
  }
  return out;
}

/** The status of a local APIService. */
export function localAvailableStatus(now: string): Record<string, unknown> {
  return {
    conditions: [{ type: 'Available', status: 'True', lastTransitionTime: now, reason: 'Local', message: 'Local APIServices are always available' }],
  };
}

/** The APIService already says it is served here (Available, reason Local). */
export function isLocalAvailable(o: KubeObject): boolean {
  const conditions = isPlainObject(o.status) && Array.isArray(o.status.conditions) ? o.status.conditions : [];
  return conditions.some((c) => isPlainObject(c) && c.type === 'Available' && c.status === 'True' && c.reason === 'Local');
}
