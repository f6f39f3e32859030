import { addWarnings } from '../fieldvalidation/index.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { checkName, decodeStrictBody } from './strict-decode.js';
import { parseWriteOptions, writeScope } from './write-options.js';

export async function updateHandler(h: HandlerScope): Promise<void> {
  const opts = parseWriteOptions(h.query, 'UpdateOptions');
  const obj = await decodeStrictBody(h, opts.fieldValidation);
  checkName(obj, h.info.name, h.def.namespaced ? h.info.namespace : '');
  const scope = writeScope(h, opts);
  const res = await h.store.update(h.info.namespace, h.info.name, () => obj, scope);
  addWarnings(h.ctx, scope.warnings ?? []);
  writeObject(h, res.created ? 201 : 200, res.object);
}
