import { errors } from '../../runtime/errors.js';
import { decodeObjectBody } from './decode.js';
import { parseDryRun } from './query.js';
import { writeObject } from './response.js';
import { requestScope, type HandlerScope } from './scope.js';

export async function createHandler(h: HandlerScope): Promise<void> {
  const dryRun = parseDryRun(h.query, 'CreateOptions');
  const obj = await decodeObjectBody(h);
  if (h.info.name) {
    // POST to an item path is only meaningful for subresources (handled elsewhere).
    throw errors.methodNotAllowed({ group: h.def.group, resource: h.def.plural }, 'create');
  }
  const created = await h.store.create(h.info.namespace, obj, requestScope(h, dryRun));
  writeObject(h, 201, created);
}
