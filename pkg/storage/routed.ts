// --etcd-servers-overrides: some resources live on etcd clusters of their own. Every
// key goes to the storage whose key prefixes hold it, or else to the main one, so the
// registry above sees one storage as before.
import type { KubeObject } from '../runtime/object.js';
import type { GetOptions, ListOptions, ListResult, PageAhead, Preconditions, Storage, TryUpdate, WatchOptions, WatchStream, WriteOptions } from './interfaces.js';

export interface StorageRoute {
  /** Key prefixes of the resources stored there, each ending in `/`. */
  prefixes: string[];
  storage: Storage;
}

export class RoutedStorage implements Storage {
  constructor(private readonly main: Storage, private readonly routes: StorageRoute[]) {}

  /** The storage holding a key, or every key under a prefix. */
  storageFor(key: string): Storage {
    const k = key.endsWith('/') ? key : `${key}/`;
    return this.routes.find((r) => r.prefixes.some((p) => k.startsWith(p)))?.storage ?? this.main;
  }

  create(key: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject> { return this.storageFor(key).create(key, obj, opts); }
  get(key: string, opts?: GetOptions): Promise<KubeObject> { return this.storageFor(key).get(key, opts); }
  list(prefix: string, opts: ListOptions): Promise<ListResult> { return this.storageFor(prefix).list(prefix, opts); }
  async pageAhead(prefix: string, opts: ListOptions): Promise<PageAhead | undefined> { return this.storageFor(prefix).pageAhead?.(prefix, opts); }
  guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate, ignoreNotFound?: boolean, opts?: WriteOptions) {
    return this.storageFor(key).guaranteedUpdate(key, preconditions, tryUpdate, ignoreNotFound, opts);
  }
  delete(key: string, preconditions?: Preconditions, validateDeletion?: (current: KubeObject) => Promise<void>, cachedExisting?: KubeObject): Promise<KubeObject> {
    return this.storageFor(key).delete(key, preconditions, validateDeletion, cachedExisting);
  }
  watch(key: string, opts: WatchOptions): Promise<WatchStream> { return this.storageFor(key).watch(key, opts); }
  count(prefix: string): Promise<number> { return this.storageFor(prefix).count(prefix); }
  /** The main cluster's: revisions of different clusters are not comparable. */
  currentRevision(): Promise<string> { return this.main.currentRevision(); }
}
