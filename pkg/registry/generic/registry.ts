// One GenericStore per served group/version/resource, all over the same Storage.
import type { ResourceDef, Scheme } from '../../runtime/scheme.js';
import type { Storage } from '../../storage/interfaces.js';
import { GenericStore } from './store.js';

export class StoreRegistry {
  private stores = new Map<string, GenericStore>();

  constructor(readonly scheme: Scheme, readonly storage: Storage, readonly prefix: string) {}

  storeFor(def: ResourceDef): GenericStore {
    const key = `${def.group}/${def.version}/${def.plural}`;
    let store = this.stores.get(key);
    if (!store) {
      store = new GenericStore(def, this.storage, this.prefix);
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
