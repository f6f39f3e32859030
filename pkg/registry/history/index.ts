// history.apiserver.k8s-ts.io/v1 objecthistories (ours, beyond upstream): what changed
// an object, read from etcd's MVCC history. Cluster-scoped and read-only: the object is
// named by query parameters, so one route serves namespaced and cluster-scoped kinds.
// Declared unbound (503 until bound); each replica binds its registry, authorizer and
// etcd client once they exist.
import type { ResourceDef } from '../rest/resource.js';
import type { ResourceScheme } from '../rest/resource-scheme.js';
import { errors } from '../../runtime/errors.js';
import { reviewStrategy } from '../authorization/review.js';
import { historyGroup, historyRead, type HistoryBackend } from './read.js';

export { historyGroup };

const unbound = async (): Promise<never> => { throw errors.serviceUnavailable('object history is not ready yet'); };

export const objectHistories: ResourceDef = {
  group: historyGroup, version: 'v1', kind: 'ObjectHistory', plural: 'objecthistories', singular: 'objecthistory',
  namespaced: false, verbs: ['get'], strategy: reviewStrategy(false), read: { get: unbound, list: unbound },
};

export function bindObjectHistories(scheme: ResourceScheme, backend: HistoryBackend): void {
  if (!scheme.resource(historyGroup, 'v1', 'objecthistories')) return; // disabled by --runtime-config
  scheme.bindRead(historyGroup, 'v1', 'objecthistories', historyRead(backend));
}
