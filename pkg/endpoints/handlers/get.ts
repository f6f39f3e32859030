import { validateResourceVersionFormat } from './list.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';

export async function getHandler(h: HandlerScope): Promise<void> {
  const rv = h.query.get('resourceVersion') ?? undefined;
  validateResourceVersionFormat(rv);
  // Only encoded (and recorded for audit): the watch cache's copy serves as it is.
  const obj = await h.store.get(h.info.namespace, h.info.name, rv, true);
  writeObject(h, 200, obj);
}
