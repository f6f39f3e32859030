// GET objecthistories/<name>?resource=<plural>[&group=<group>][&namespace=<ns>]
// [&resourceVersion=<N>]: the object's versions etcd still keeps, or one whole version.
// The filter chain has checked `get` on objecthistories; the object itself is checked
// here through the authorizer chain (as a SubjectAccessReview would), so its history
// (a Secret's data included) is shown only to who may read it.
import type { Authorizer } from '../../authorization/interfaces.js';
import { forbiddenError } from '../../authorization/forbidden.js';
import { errors } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { ResourceDef, VirtualRead, VirtualReadContext } from '../rest/resource.js';
import { readKeyHistory, type HistorySource } from '../../storage/etcd/history/reader.js';
import type { StoreRegistry } from '../generic/registry.js';
import { entriesOf } from './entries.js';

export const historyGroup = 'history.apiserver.k8s-ts.io';

export interface HistoryBackend {
  registry: StoreRegistry<ResourceDef>;
  authorizer: Authorizer;
  /** The etcd store (its guarded client and value transformer). */
  storage: HistorySource;
}

export function historyRead(b: HistoryBackend): VirtualRead {
  return {
    async list() { throw errors.methodNotAllowed({ group: historyGroup, resource: 'objecthistories' }, 'list'); },
    async get(name, ctx) {
      if (!ctx) throw errors.badRequest('objecthistories needs the caller');
      const q = ctx.query;
      const group = q.get('group') ?? '';
      const resource = q.get('resource') ?? '';
      const namespace = q.get('namespace') ?? '';
      if (!resource) throw errors.badRequest('the query parameter "resource" is required (the plural of the object\'s resource, as in its URL)');
      const def = b.registry.scheme.resourceInGroup(group, resource);
      if (!def || def.virtual || def.read) throw errors.notFound({ group, resource }, name);
      if (def.namespaced && !namespace) throw errors.badRequest(`the query parameter "namespace" is required for ${resource}`);
      await authorizeObjectRead(b.authorizer, ctx, { group, resource, namespace: def.namespaced ? namespace : '', name });
      const store = b.registry.storeFor(def);
      const history = await readKeyHistory(b.storage, store.key(namespace, name));
      const rv = q.get('resourceVersion');
      if (rv) return wholeVersion(history, rv, { group, resource }, name);
      // Nothing in the window: never existed, or its whole life was compacted away.
      if (history.versions.length === 0) throw errors.notFound({ group, resource }, name);
      return {
        kind: 'ObjectHistory', apiVersion: `${historyGroup}/v1`,
        metadata: { name, resourceVersion: String(history.currentRevision) },
        target: { group, version: def.version, resource, ...(def.namespaced ? { namespace } : {}), name },
        compactedRevision: String(history.compactedRevision),
        complete: !history.truncated,
        versions: entriesOf(history),
      } as unknown as KubeObject;
    },
  };
}

async function authorizeObjectRead(authz: Authorizer, ctx: VirtualReadContext,
  o: { group: string; resource: string; namespace: string; name: string }): Promise<void> {
  const attrs = { user: ctx.user, verb: 'get', isResourceRequest: true, path: '', namespace: o.namespace, apiGroup: o.group,
    apiVersion: '*', resource: o.resource, subresource: '', name: o.name };
  const d = await authz.authorize(attrs);
  if (d.decision !== 'allow') throw forbiddenError(attrs, d.reason);
}

function wholeVersion(h: Awaited<ReturnType<typeof readKeyHistory>>, rv: string, gr: { group: string; resource: string }, name: string): KubeObject {
  const n = Number(rv);
  if (!Number.isInteger(n) || n <= 0) throw errors.badRequest(`invalid resourceVersion "${rv}"`);
  const v = h.versions.find((x) => x.revision === n);
  if (v?.object) return v.object;
  if (n < h.compactedRevision || (h.truncated && n < (h.versions[0]?.revision ?? 0))) {
    throw errors.gone(`resourceVersion ${n} of ${gr.resource} "${name}" is older than what etcd keeps (compacted at revision ${h.compactedRevision})`);
  }
  throw errors.notFound(gr, `${name}@${n}`);
}
