import { errors } from '../../runtime/errors.js';
import { parseListQuery, type ListQuery } from './query.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { selectionFor } from './selectors.js';
import { featureGates } from '../../server/feature-gates.js';

/** The refusals of SPEC 4.7's resourceVersion x resourceVersionMatch x pagination table. */
export function validateListConsistency(q: ListQuery): void {
  const rv = q.resourceVersion;
  const match = q.resourceVersionMatch ?? '';
  if (match !== '') {
    if (rv === undefined || rv === '') {
      throw errors.invalid('meta.k8s.io', 'ListOptions', '', [{
        type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided',
      }]);
    }
    if (q.continue) {
      throw errors.invalid('meta.k8s.io', 'ListOptions', '', [{
        type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden when continue is provided',
      }]);
    }
    if (match === 'Exact' && rv === '0') {
      throw errors.invalid('meta.k8s.io', 'ListOptions', '', [{
        type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      }]);
    }
  }
  if (q.continue && rv !== undefined && rv !== '' && rv !== '0') {
    throw errors.badRequest('specifying resource version is not allowed when using continue');
  }
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) {
    throw errors.badRequest(`invalid resource version: ${rv}`);
  }
}

export async function listHandler(h: HandlerScope): Promise<void> {
  const q = parseListQuery(h.query);
  validateListConsistency(q);
  if (!featureGates().enabled('APIListChunking')) {
    q.limit = undefined;
    q.continue = undefined;
  }
  const selection = selectionFor(h.def, q);
  const list = await h.store.list(h.info.namespace, {
    ...selection, limit: q.limit, continue: q.continue,
    resourceVersion: q.resourceVersion, resourceVersionMatch: q.resourceVersionMatch,
  });
  writeObject(h, 200, list);
}
