// POST to an operation rather than a stored object: a virtual resource (the access
// reviews, TokenReview) or an operation subresource (serviceaccounts/token). The body
// is decoded and defaulted like any other; nothing is persisted here.
import { errors } from '../../runtime/errors.js';
import type { VirtualContext, VirtualCreate } from '../../runtime/scheme.js';
import { decodeObjectBody, type BodyType } from './decode.js';
import { parseDryRun } from './query.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';

export function virtualCreateHandler(create: VirtualCreate, type?: BodyType,
  stores?: VirtualContext['stores']): (h: HandlerScope) => Promise<void> {
  return async (h) => {
    if (h.ctx.method !== 'POST') throw errors.methodNotAllowed({ group: h.def.group, resource: h.def.plural }, h.info.verb);
    const dryRun = parseDryRun(h.query, 'CreateOptions');
    const obj = await decodeObjectBody(h, type);
    const out = await create(obj, { user: h.user, namespace: h.info.namespace, name: h.info.name, dryRun, admission: h.admission, stores });
    writeObject(h, 201, out);
  };
}
