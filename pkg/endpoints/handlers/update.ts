import { decodeObjectBody } from './decode.js';
import { parseDryRun } from './query.js';
import { writeObject } from './response.js';
import { requestScope, type HandlerScope } from './scope.js';

export async function updateHandler(h: HandlerScope): Promise<void> {
  const dryRun = parseDryRun(h.query, 'UpdateOptions');
  const obj = await decodeObjectBody(h);
  const res = await h.store.update(h.info.namespace, h.info.name, async () => obj, requestScope(h, dryRun));
  writeObject(h, res.created ? 201 : 200, res.object);
}
