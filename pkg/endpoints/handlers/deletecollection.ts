// DELETE on a collection: every object the selectors pick (one page with limit), each
// deleted as a DELETE would; the answer is the list of what was selected.
import { readDeleteOptions } from './delete.js';
import { validateListConsistency } from './list.js';
import { parseListQuery } from './query.js';
import { writeObject } from './response.js';
import { requestScope, type HandlerScope } from './scope.js';
import { selectionFor } from './selectors.js';

export async function deleteCollectionHandler(h: HandlerScope): Promise<void> {
  const q = parseListQuery(h.query);
  validateListConsistency(q);
  const { options, dryRun } = await readDeleteOptions(h);
  const selection = selectionFor(h.def, q);
  const list = await h.store.deleteCollection(h.info.namespace, {
    ...selection, limit: q.limit, continue: q.continue,
    resourceVersion: q.resourceVersion, resourceVersionMatch: q.resourceVersionMatch,
  }, options, requestScope(h, dryRun));
  writeObject(h, 200, list);
}
