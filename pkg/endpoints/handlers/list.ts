// GET on a collection: one list, or one chunk of a paginated list. The storage reads at
// one etcd revision per list (see pkg/storage/etcd/store.ts); this handler refuses the
// invalid resourceVersion x resourceVersionMatch x pagination combinations of SPEC 4.7
// with upstream's codes and messages, and applies the chunking feature gates.
import { errors, type FieldError } from '../../runtime/errors.js';
import { parseListQuery, type ListQuery } from './query.js';
import { writeList } from './response.js';
import { readAhead, takeAhead } from './list-ahead.js';
import type { KubeList } from '../../runtime/object.js';
import type { ListParams } from '../../registry/generic/store-interfaces.js';
import type { HandlerScope } from './scope.js';
import { selectionFor } from './selectors.js';
import { featureGates } from '../../features/gates.js';

function invalidListOptions(errs: FieldError[]): never {
  throw errors.invalid('meta.k8s.io', 'ListOptions', '', errs);
}

const maxUint64 = (1n << 64n) - 1n;

/**
 * A resourceVersion is opaque to clients, but ours are etcd revisions: digits only, and
 * (as upstream parses them) a uint64; a bigger one would otherwise be read as a float
 * and wait for a revision like 1e+23.
 */
export function validateResourceVersionFormat(rv: string | undefined): void {
  if (rv !== undefined && rv !== '' && (!/^\d+$/.test(rv) || BigInt(rv) > maxUint64)) {
    throw errors.badRequest(`invalid resource version: ${rv}`);
  }
}

/** The refusals of SPEC 4.7's table for list, as upstream's ValidateListOptions. */
export function validateListConsistency(q: ListQuery): void {
  const rv = q.resourceVersion;
  const match = q.resourceVersionMatch ?? '';
  const errs: FieldError[] = [];
  if (match !== '') {
    if (rv === undefined || rv === '') {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' });
    }
    if (q.continue) {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden when continue is provided' });
    }
    if (match === 'Exact' && rv === '0') {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"' });
    }
  }
  if (q.sendInitialEvents !== undefined) {
    errs.push({ type: 'FieldValueForbidden', field: 'sendInitialEvents', detail: 'sendInitialEvents is forbidden for list' });
  }
  if (errs.length > 0) invalidListOptions(errs);
  if (q.continue && rv !== undefined && rv !== '' && rv !== '0') {
    throw errors.badRequest('specifying resource version is not allowed when using continue');
  }
  validateResourceVersionFormat(rv);
}

export async function listHandler(h: HandlerScope): Promise<void> {
  const q = parseListQuery(h.query);
  const gates = featureGates();
  if (!gates.enabled('APIListChunking')) {
    // Upstream drops both before validating, so a stale token cannot fail the request.
    q.limit = undefined;
    q.continue = undefined;
  }
  validateListConsistency(q);
  const params: ListParams = {
    ...selectionFor(h.def, q), limit: q.limit, continue: q.continue,
    resourceVersion: q.resourceVersion, resourceVersionMatch: q.resourceVersionMatch,
  };
  const adjust = (list: KubeList): void => {
    if (!gates.enabled('RemainingItemCount')) delete list.metadata.remainingItemCount;
  };
  const ahead = q.continue ? takeAhead(h, q.continue) : undefined;
  const listed = await ahead?.listed;
  let list: KubeList;
  if (listed) {
    // Read and encoded while the client read the page before; etcd is asked now.
    const confirmed = ahead!.confirmed ?? listed.confirm();
    confirmed.catch(() => undefined);
    list = listed.list;
    await writeList(h, 200, list, confirmed, ahead!.encoded);
  } else {
    const pending = await h.store.listPending(h.info.namespace, params);
    list = pending.list;
    adjust(list);
    // A list etcd's answer refilled (a first page read while the freshness probe was out) is adjusted again.
    const confirmed = pending.confirmed?.then((refilled) => { if (refilled) adjust(list); return refilled; });
    confirmed?.catch(() => undefined);
    await writeList(h, 200, list, confirmed);
  }
  if (q.limit && list.metadata.continue) readAhead(h, params, list.metadata.continue, adjust);
}
