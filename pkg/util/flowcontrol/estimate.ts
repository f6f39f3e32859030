// Upstream's APF work estimator, for LIST: a list costs a seat per 100 objects it has to
// process (between 1 and 10), counted from the stored object counts (at most `limit` of
// them when the client pages), so a few large lists cannot take every seat of their
// level while small requests of other flows wait.
import { qualifiedResource } from '../../runtime/errors.js';

export const objectsPerSeat = 100;
export const maximumSeats = 10;

export interface ListDigest { verb: string; apiGroup: string; resource: string; subresource: string }

/** Stored objects of a resource (`deployments.apps`), or undefined when not yet counted. */
export type ObjectCounts = (resource: string) => number | undefined;

export function estimateSeats(r: ListDigest, query: URLSearchParams, counts: ObjectCounts): number {
  if (r.verb !== 'list' || r.subresource !== '') return 1;
  const stored = counts(qualifiedResource({ group: r.apiGroup, resource: r.resource })) ?? 0;
  const limit = Number(query.get('limit') ?? 0);
  const objects = limit > 0 ? Math.min(limit, stored) : stored;
  return Math.min(maximumSeats, Math.max(1, Math.ceil(objects / objectsPerSeat)));
}
