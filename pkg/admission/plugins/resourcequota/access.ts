// Where quota admission reads quotas, as upstream's quotaAccessor does: the replica's
// informer, so a create in a namespace costs no etcd read; when the informer shows none
// (a quota made an instant ago on another replica may not have arrived), a live list,
// remembered for 30 s per namespace; and over both, the newer version of any quota this
// replica has just charged, so the next charge does not start from a stale copy and
// conflict. A conflict is retried from storage (`fresh`).
import { apiserverUser } from '../../../client/identities.js';
import type { QuotaView } from '../../../quota/quota.js';
import { toJSONResourceList, type ResourceList } from '../../../quota/resources.js';
import { internalScope } from '../../../registry/generic/internal-scope.js';
import type { GenericStore } from '../../../registry/generic/store.js';
import { errors, StatusError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import type { ObjectSource } from '../../source.js';
import type { QuotaAccess } from './evaluator.js';

/** Upstream's liveTTL: how long a live lookup of a namespace's quotas is reused. */
export const liveLookupTtlMs = 30_000;
/** Upstream's LRU sizes for live lookups and for quotas it has updated. */
const remembered = 100;

type QuotaStore = Pick<GenericStore, 'list' | 'update' | 'groupResource'>;

/** A Map that forgets its oldest entry past `remembered` (insertion order). */
function remember<V>(m: Map<string, V>, key: string, value: V): void {
  m.delete(key);
  m.set(key, value);
  if (m.size > remembered) m.delete(m.keys().next().value as string);
}

const keyOf = (q: KubeObject): string => `${q.metadata.namespace ?? ''}/${q.metadata.name ?? ''}`;
const revision = (q: KubeObject): number => Number(q.metadata.resourceVersion ?? 0);

/** A namespace's quotas read from storage, kept for a while; `found` once the read is done. */
interface LiveLookup { expires: number; items: Promise<KubeObject[]>; found?: KubeObject[] }

/**
 * `cached`: the replica's quotas informer; without it every read goes to storage (the
 * unit tests' stores, and a server built without informers).
 */
export function quotaAccess(store: QuotaStore, cached?: Pick<ObjectSource, 'list' | 'listNow'>): QuotaAccess {
  const scope = internalScope(apiserverUser, 'kube-apiserver', { subresource: 'status' });
  const liveLookups = new Map<string, LiveLookup>();
  const updated = new Map<string, KubeObject>();
  const live = async (namespace: string) => (await store.list(namespace, {})).items as KubeObject[];

  const lookup = (namespace: string): Promise<KubeObject[]> => {
    let entry = liveLookups.get(namespace);
    if (!entry || entry.expires < Date.now()) {
      // One lookup in flight per namespace (upstream's singleflight); a failure is not kept.
      const made: LiveLookup = { expires: Date.now() + liveLookupTtlMs, items: live(namespace) };
      entry = made;
      remember(liveLookups, namespace, made);
      made.items.then((items) => { made.found = items; }, () => { if (liveLookups.get(namespace) === made) liveLookups.delete(namespace); });
    }
    return entry.items;
  };

  return {
    async list(namespace) {
      if (!cached) return live(namespace);
      let quotas = await cached.list(namespace);
      if (quotas.length === 0) quotas = await lookup(namespace);
      return quotas.map((q) => {
        const mine = updated.get(keyOf(q));
        return mine && revision(mine) > revision(q) ? mine : q;
      });
    },
    noneNow(namespace) {
      // What list() would answer empty without a wait: none in the synced informer, and
      // none in a live lookup that has finished and still stands.
      if (cached?.listNow?.(namespace)?.length !== 0) return false;
      const entry = liveLookups.get(namespace);
      return entry?.found?.length === 0 && entry.expires >= Date.now();
    },
    fresh: live,
    async updateUsed(q: QuotaView, used: ResourceList) {
      const res = await store.update(q.namespace, q.name, async (current) => {
        if (!current || current.metadata.resourceVersion !== q.resourceVersion) {
          throw errors.conflict(store.groupResource, q.name, 'the object has been modified; please apply your changes to the latest version and try again');
        }
        const status = isPlainObject(current.status) ? current.status : {};
        return { ...current, status: { ...status, used: toJSONResourceList(used) } };
      }, scope).catch((err) => {
        if (err instanceof StatusError && err.code === 404) {
          throw errors.conflict(store.groupResource, q.name, 'the object has been deleted');
        }
        throw err;
      });
      remember(updated, keyOf(res.object), res.object);
    },
  };
}
