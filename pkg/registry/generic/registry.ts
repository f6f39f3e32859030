// One GenericStore per served group/version/resource, all over the same Storage.
import { storageSegment, type ResourceDef, type Scheme } from '../../runtime/scheme.js';
import type { Storage } from '../../storage/interfaces.js';
import { GenericStore } from './store.js';

export class StoreRegistry {
  private stores = new Map<string, GenericStore>();

  /**
   * `ttlSeconds` maps a storage location (e.g. `events`) to how long its objects live;
   * keyed by location so every group serving those objects applies the same TTL.
   */
  constructor(readonly scheme: Scheme, readonly storage: Storage, readonly prefix: string,
    private readonly ttlSeconds: Record<string, number> = {}) {}

  storeFor(def: ResourceDef): GenericStore {
    const key = `${def.group}/${def.version}/${def.plural}`;
    let store = this.stores.get(key);
    if (!store) {
      store = new GenericStore(def, this.storage, this.prefix, { ttlSeconds: this.ttlSeconds[storageSegment(def)] });
      this.stores.set(key, store);
    }
    return store;
  }

  /** The store of a resource's preferred version, for controllers and bootstrap. */
  store(group: string, plural: string): GenericStore {
    const def = this.scheme.resourceInGroup(group, plural);
    if (!def) throw new Error(`resource ${plural}.${group} is not served`);
    return this.storeFor(def);
  }
}
