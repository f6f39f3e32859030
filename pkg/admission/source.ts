// How plugins read other objects: the replica's shared informer first (no etcd read on
// the hot path), storage when the cache may lag behind a write another replica just made
// (upstream's plugins do the same "live lookup" through their client).
import type { InformerFactory } from '../client/factory.js';
import type { Informer } from '../client/informer.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import type { GenericStore } from '../registry/generic/store.js';
import { StatusError } from '../runtime/errors.js';
import type { KubeObject } from '../runtime/object.js';

export interface ObjectSource {
  /** From the cache, once it has synced. */
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  list(namespace: string): Promise<KubeObject[]>;
  /** From the cache without waiting: undefined until it has synced. */
  listNow?(namespace: string): KubeObject[] | undefined;
  /** From storage. */
  liveGet(namespace: string, name: string): Promise<KubeObject | undefined>;
  liveList(namespace: string): Promise<KubeObject[]>;
}

/** An ObjectSource over an informer and the store behind it. */
export function informerSource(informer: Informer, store: GenericStore): ObjectSource {
  return {
    get: async (namespace, name) => { await informer.waitForSync(); return informer.get(namespace, name); },
    list: async (namespace) => { await informer.waitForSync(); return informer.list(namespace); },
    listNow: (namespace) => (informer.hasSynced() ? informer.list(namespace) : undefined),
    liveGet: async (namespace, name) => {
      try {
        return await store.get(namespace, name);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
    },
    liveList: async (namespace) => (await store.list(namespace, {})).items,
  };
}

/** The replica's shared informer and store of one resource (pass the ServerDeps). */
export function objectsOf(d: { informers: InformerFactory; registry: StoreRegistry }, group: string, plural: string): ObjectSource {
  return informerSource(d.informers.informerFor(group, plural), d.registry.store(group, plural));
}

/** A fixed set of objects (unit tests); "live" sees `live` when given, else the same set. */
export function staticSource(objects: KubeObject[], live: KubeObject[] = objects): ObjectSource & { liveReads: number } {
  const find = (set: KubeObject[], ns: string, name: string) => set.find((o) => (o.metadata.namespace ?? '') === ns && o.metadata.name === name);
  const inNs = (set: KubeObject[], ns: string) => set.filter((o) => !ns || o.metadata.namespace === ns);
  const src = {
    liveReads: 0,
    get: async (ns: string, name: string) => find(objects, ns, name),
    list: async (ns: string) => inNs(objects, ns),
    liveGet: async (ns: string, name: string) => { src.liveReads++; return find(live, ns, name); },
    liveList: async (ns: string) => { src.liveReads++; return inNs(live, ns); },
  };
  return src;
}
