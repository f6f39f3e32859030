import { errors } from '../../runtime/errors.js';
import { addWarnings } from '../fieldvalidation/index.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { decodeStrictBody } from './strict-decode.js';
import { parseWriteOptions, writeScope } from './write-options.js';

export async function createHandler(h: HandlerScope): Promise<void> {
  const opts = parseWriteOptions(h.query, 'CreateOptions');
  if (h.info.name) {
    // POST to an item path is only meaningful for subresources (handled elsewhere).
    throw errors.methodNotAllowed({ group: h.def.group, resource: h.def.plural }, 'create');
  }
  const obj = await decodeStrictBody(h, opts.fieldValidation);
  const scope = writeScope(h, opts);
  const created = await h.store.create(h.info.namespace, obj, scope);
  addWarnings(h.ctx, scope.warnings ?? []);
  writeObject(h, 201, created);
}
