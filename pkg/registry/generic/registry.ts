// One GenericStore per served group/version/resource, all over the same Storage.
import { storageSegment, type Scheme } from '../../runtime/scheme.js';
import type { StoreDef } from './store-def.js';
import type { Storage } from '../../storage/interfaces.js';
import { GenericStore } from './store.js';

/** `D`: the declarations the scheme holds (the registry's ResourceDef when serving). */
export class StoreRegistry<D extends StoreDef = StoreDef> {
  private stores = new Map<string, GenericStore>();

  /**
   * `ttlSeconds` maps a storage location (e.g. `events`) to how long its objects live;
   * keyed by location so every group serving those objects applies the same TTL.
   * `deleteCollectionWorkers`: --delete-collection-workers.
   */
  constructor(readonly scheme: Scheme<D>, readonly storage: Storage, readonly prefix: string,
    private readonly opts: { ttlSeconds?: Record<string, number>; deleteCollectionWorkers?: number } = {}) {}

  storeFor(def: StoreDef): GenericStore {
    const key = `${def.group}/${def.version}/${def.plural}`;
    let store = this.stores.get(key);
    // A resource declared anew (a custom resource whose CRD changed) gets a new store.
    if (!store || store.def !== def) {
      const storage = def.wrapStorage ? def.wrapStorage(this.storage) : this.storage;
      store = new GenericStore(def, storage, this.prefix, { ttlSeconds: this.opts.ttlSeconds?.[storageSegment(def)] }, this.opts.deleteCollectionWorkers);
      this.stores.set(key, store);
    }
    return store;
  }

  /** Drops the store of a resource no longer served (a custom resource's CRD changed or went). */
  forget(def: StoreDef): void {
    const key = `${def.group}/${def.version}/${def.plural}`;
    if (this.stores.get(key)?.def === def) this.stores.delete(key);
  }

  /** The store of a resource's preferred version, for controllers and bootstrap. */
  store(group: string, plural: string): GenericStore {
    const def = this.scheme.resourceInGroup(group, plural);
    if (!def) throw new Error(`resource ${plural}.${group} is not served`);
    return this.storeFor(def);
  }
}
