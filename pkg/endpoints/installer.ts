// Routes every resource request to the generic handler for its verb, driven by the
// scheme: no resource has a handler of its own. Subresources that share the parent's
// kind (status) reuse the same store with the subresource recorded for the strategy.
import type Koa from 'koa';
import type { Admission } from '../admission/interfaces.js';
import { anonymousUser, type UserInfo } from '../authentication/user.js';
import { errors, StatusError } from '../runtime/errors.js';
import type { Scheme, Verb } from '../runtime/scheme.js';
import { subresourceOf, type ResourceDef } from '../registry/rest/resource.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { RequestInfo } from './request/info.js';
import { createHandler } from './handlers/create.js';
import { deleteHandler } from './handlers/delete.js';
import { deleteCollectionHandler } from './handlers/deletecollection.js';
import { getHandler } from './handlers/get.js';
import { listHandler } from './handlers/list.js';
import { patchHandler } from './handlers/patch.js';
import type { HandlerScope } from './handlers/scope.js';
import { updateHandler } from './handlers/update.js';
import { watchHandler } from './handlers/watch.js';
import { virtualCreateHandler } from './handlers/virtual.js';
import { scaleHandler } from './handlers/scale.js';
import { virtualReadHandler } from './handlers/virtual-read.js';
import { recordDeprecatedRequest } from './deprecation.js';
import { connectHandler, type ConnectDeps } from './handlers/connect.js';
import { chooseMedia } from './handlers/response.js';
import { requestQuery } from './request/query.js';

type Handler = (h: HandlerScope) => Promise<void>;

const handlers: Record<Verb, Handler> = {
  get: getHandler,
  list: listHandler,
  watch: watchHandler,
  create: createHandler,
  update: updateHandler,
  patch: patchHandler,
  delete: deleteHandler,
  deletecollection: deleteCollectionHandler,
};

const writes = new Set<Verb>(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Upstream's handlers negotiate the response media type before anything else, so a write
 * whose answer cannot be rendered (406) never happens; negotiating only when writing the
 * response would store the change and then report a failure.
 */
function negotiatedFirst(verb: Verb, handler: Handler): Handler {
  return writes.has(verb) ? (h) => (chooseMedia(h), handler(h)) : handler;
}

function runHandler(verb: Verb, h: HandlerScope): Promise<void> {
  // As negotiatedFirst, without a closure made per request.
  if (writes.has(verb)) chooseMedia(h);
  return handlers[verb](h);
}

export interface Registry {
  scheme: Scheme<ResourceDef>;
  storeFor(def: ResourceDef): GenericStore;
}

export function notFoundResource(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function resourceHandler(registry: Registry, admission: Admission, connect?: ConnectDeps): Koa.Middleware {
  const stores = (group: string, plural: string): GenericStore | undefined => {
    const d = registry.scheme.resourceInGroup(group, plural);
    return d ? registry.storeFor(d) : undefined;
  };
  // Not an async function: it only hands the request on (a throw here rejects the chain's promise all the same).
  return (ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo | undefined;
    if (!info?.isResourceRequest) return next();
    // Upstream's router matches segment by segment (go-restful, reached only by a path under
    // a web service's root): an empty segment (`//api/v1/...`, `/api/v1//namespaces/x`)
    // matches no route, a 404, though the request info, which skips them, names a resource
    // (and authorization saw that). Trailing slashes are trimmed there; the free-form tail
    // of a proxy path is not routed by segments.
    if (info.parts.length === 0 && ctx.path.replace(/\/+$/, '').includes('//')) throw notFoundResource();
    const def = registry.scheme.resource(info.apiGroup, info.apiVersion, info.resource);
    if (!def) throw notFoundResource();
    const verb = info.verb as Verb;
    const h: HandlerScope = {
      ctx, info, def, store: registry.storeFor(def),
      user: (ctx.state.user as UserInfo | undefined) ?? anonymousUser, admission,
      query: requestQuery(ctx),
    };
    // Routes exist only in the resource's own scope: no cluster-scoped kind under
    // /namespaces/<ns>/, and no namespaced item or write without a namespace.
    if (!def.namespaced && info.namespace && info.resource !== 'namespaces') throw notFoundResource();
    if (def.namespaced && !info.namespace && !['list', 'watch'].includes(verb)) throw notFoundResource();
    recordDeprecatedRequest(ctx, def, info.subresource);
    if (def.read) {
      if (info.subresource) throw notFoundResource();
      if (!def.verbs.includes(verb)) throw methodNotAllowed();
      return virtualReadHandler(def.read)(h);
    }
    if (def.virtual) {
      if (info.name || info.subresource) throw notFoundResource();
      return negotiatedFirst(verb, virtualCreateHandler(def.virtual, undefined, stores))(h);
    }
    if (info.subresource) {
      const sub = subresourceOf(def, info.subresource);
      if (!sub) throw notFoundResource();
      if (sub.connect) {
        if (!connect) throw notFoundResource();
        return connectHandler(sub.connect, connect, stores)(h);
      }
      if (sub.create) {
        const type = { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind };
        return negotiatedFirst(verb, virtualCreateHandler(sub.create, type, stores, sub.alternateVersions))(h);
      }
      if (sub.scale) {
        if (!sub.verbs.includes(verb)) throw errors.methodNotAllowed({ group: def.group, resource: `${def.plural}/${sub.name}` }, verb);
        return negotiatedFirst(verb, scaleHandler(sub.scale))(h);
      }
      if (sub.kind !== def.kind) throw notFoundResource();
      if (!sub.verbs.includes(verb)) throw errors.methodNotAllowed({ group: def.group, resource: `${def.plural}/${sub.name}` }, verb);
      return runHandler(verb, h);
    }
    if (!def.verbs.includes(verb) || !(verb in handlers)) {
      throw methodNotAllowed();
    }
    // Item verbs have no route on a collection path (upstream answers 405 there).
    if (!info.name && (verb === 'update' || verb === 'patch')) throw methodNotAllowed();
    return runHandler(verb, h);
  };
}

function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, {});
}
