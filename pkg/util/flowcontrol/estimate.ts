// Upstream's APF work estimator for LIST (v1.28's list_work_estimator): a list costs a
// seat per 100 objects it has to process (between 1 and 10), so a few large lists cannot
// take every seat of their level while small requests of other flows wait. What it has
// to process is judged as upstream judges it from the request alone: a list of one name
// is a get; one the watch cache answers walks every stored object; one etcd answers
// reads at most `limit` objects, and with a selector also filters what it reads.
import { qualifiedResource } from '../../runtime/errors.js';

export const objectsPerSeat = 100;
export const maximumSeats = 10;

export interface ListDigest { verb: string; apiGroup: string; resource: string; subresource: string; name?: string }

/** Stored objects of a resource (`deployments.apps`), or undefined when not yet counted. */
export type ObjectCounts = (resource: string) => number | undefined;

export function estimateSeats(r: ListDigest, query: URLSearchParams, counts: ObjectCounts): number {
  if (r.verb !== 'list' || r.subresource !== '') return 1;
  // `fieldSelector=metadata.name=x` (request info's name): the storage answers it as a get.
  if (r.name) return 1;
  const stored = counts(qualifiedResource({ group: r.apiGroup, resource: r.resource }));
  // Not counted (yet, or served elsewhere, as an aggregated API): upstream charges the minimum.
  if (stored === undefined) return 1;
  const requested = Number(query.get('limit') ?? 0);
  const limit = requested > 0 && requested < stored ? requested : stored;
  let objects: number;
  if (!listsFromStorage(query, requested)) objects = stored;
  else if (query.get('fieldSelector') || query.get('labelSelector')) objects = stored + limit;
  else objects = 2 * limit;
  return Math.min(maximumSeats, Math.max(1, Math.ceil(objects / objectsPerSeat)));
}

/**
 * Whether upstream v1.28 would answer the list from etcd rather than its watch cache
 * (its shouldDelegateList, ConsistentListFromCache off): a consistent list, a continue,
 * a page at an exact revision, or a resourceVersionMatch the cache does not serve. The
 * estimate follows upstream's routing, not ours, so flows get upstream's seats.
 */
function listsFromStorage(query: URLSearchParams, limit: number): boolean {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  return rv === '' || (query.get('continue') ?? '') !== '' || (limit > 0 && rv !== '0') || (match !== '' && match !== 'NotOlderThan');
}
