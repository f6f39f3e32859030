import { addWarnings } from '../fieldvalidation/index.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { ownedResults } from '../../registry/generic/store-interfaces.js';
import { checkName, decodeStrictUpdateBody } from './strict-decode.js';
import { parseWriteOptions, writeScope } from './write-options.js';

export async function updateHandler(h: HandlerScope): Promise<void> {
  const opts = parseWriteOptions(h.query, 'UpdateOptions');
  const { obj, again } = await decodeStrictUpdateBody(h, opts.fieldValidation);
  checkName(obj, h.info.name, h.def.namespaced ? h.info.namespace : '');
  const scope = writeScope(h, opts);
  // The store's first pass takes the decoded object as its own; a retried one a new decode.
  let passes = 0;
  const res = await h.store.update(h.info.namespace, h.info.name, ownedResults(() => (passes++ === 0 ? obj : again())), scope);
  addWarnings(h.ctx, scope.warnings ?? []);
  writeObject(h, res.created ? 201 : 200, res.object);
}
