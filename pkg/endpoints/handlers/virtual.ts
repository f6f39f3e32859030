// POST to an operation rather than a stored object: a virtual resource (the access
// reviews, TokenReview) or an operation subresource (serviceaccounts/token). The body
// is decoded and defaulted like any other; nothing is persisted here.
import { errors } from '../../runtime/errors.js';
import type { VirtualContext, VirtualCreate } from '../../registry/rest/resource.js';
import { isPlainObject } from '../../runtime/object.js';
import { decodeBody, objectBodyMediaTypes } from '../negotiation/body.js';
import { readRawBody, toKubeObject, type BodyType } from './decode.js';
import { parseDryRun } from './query.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';

/**
 * `alternateVersions`: other versions of `type` the operation also accepts, with the
 * same fields (pods/eviction takes policy/v1beta1 Eviction bodies too); they are read
 * as `type`'s version.
 */
export function virtualCreateHandler(create: VirtualCreate, type?: BodyType,
  stores?: VirtualContext['stores'], alternateVersions: string[] = []): (h: HandlerScope) => Promise<void> {
  return async (h) => {
    if (h.ctx.method !== 'POST') throw errors.methodNotAllowed({ group: h.def.group, resource: h.def.plural }, h.info.verb);
    const dryRun = parseDryRun(h.query, 'CreateOptions');
    const { raw, mediaType } = await readRawBody(h);
    if (!objectBodyMediaTypes.includes(mediaType)) throw errors.unsupportedMediaType(objectBodyMediaTypes.join(', '));
    const body = decodeBody(raw, mediaType);
    if (type && isPlainObject(body)) {
      const b = body as Record<string, unknown>;
      if (alternateVersions.some((v) => b.apiVersion === `${type.group}/${v}`)) b.apiVersion = `${type.group}/${type.version}`;
    }
    const obj = toKubeObject(h.def, body, type);
    const out = await create(obj, { user: h.user, namespace: h.info.namespace, name: h.info.name, dryRun, admission: h.admission, stores });
    writeObject(h, 201, out);
  };
}
