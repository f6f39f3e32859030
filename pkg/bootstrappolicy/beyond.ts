// Default roles for the APIs this server serves beyond upstream (pkg/registry/
// beyond-upstream.ts): named under our own prefix so that none can be mistaken for, or
// collide with, an upstream or OpenShift role. Cluster admins (system:masters) are bound
// to them explicitly; grant them to others with a binding of your own.
import { r } from './rules.js';
import type { RoleSpec } from './clusterroles.js';

export const whoCanRole = 'k8s-ts:who-can';
export const historyReaderRole = 'k8s-ts:object-history-reader';

export const beyondUpstreamClusterRoles: RoleSpec[] = [
  { name: whoCanRole, rules: [r('create', 'authorization.openshift.io', 'resourceaccessreviews,localresourceaccessreviews')] },
  // Reading an object's history also needs `get` on the object itself, checked per request.
  { name: historyReaderRole, rules: [r('get', 'history.apiserver.k8s-ts.io', 'objecthistories')] },
];

/** ClusterRole name -> the groups its bootstrap ClusterRoleBinding (same name) names. */
export const beyondUpstreamBindings: Array<{ role: string; groups: string[] }> = [
  { role: whoCanRole, groups: ['system:masters'] },
  { role: historyReaderRole, groups: ['system:masters'] },
];
