// Storage with a watch cache per resource (upstream's cacher, the watch half): every
// call goes to etcd except watches, which are served from the resource's WatchCache
// when it covers the requested revision, and from etcd otherwise. Watches that ask for
// the initial state go to etcd too (a consistent list at one revision).
import type { Etcd3 } from 'etcd3';
import type {
  GetOptions, ListOptions, ListResult, Preconditions, Storage, TryUpdate, WatchOptions, WatchStream, WriteOptions,
} from '../interfaces.js';
import type { KubeObject } from '../../runtime/object.js';
import { WatchCache, type WatchCacheOptions } from './watch-cache.js';

export class CachedStorage implements Storage {
  private caches = new Map<string, WatchCache>();
  /** Resource roots, longest first, so `services/specs/` wins over a shorter root. */
  private readonly roots: string[];

  constructor(private readonly inner: Storage & { currentRevision(): Promise<string>; historyCompacted(rev: number): Promise<boolean> }, client: Etcd3,
    roots: string[], opts: WatchCacheOptions) {
    this.roots = [...new Set(roots.map((r) => (r.endsWith('/') ? r : `${r}/`)))].sort((a, b) => b.length - a.length);
    for (const root of this.roots) this.caches.set(root, new WatchCache(client, root, opts, () => inner.currentRevision()));
  }

  create(key: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject> { return this.inner.create(key, obj, opts); }
  get(key: string, opts?: GetOptions): Promise<KubeObject> { return this.inner.get(key, opts); }
  list(prefix: string, opts: ListOptions): Promise<ListResult> { return this.inner.list(prefix, opts); }
  guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound?: boolean, opts?: WriteOptions): Promise<{ object: KubeObject; created: boolean }> {
    return this.inner.guaranteedUpdate(key, preconditions, tryUpdate, ignoreNotFound, opts);
  }
  delete(key: string, preconditions?: Preconditions, validateDeletion?: (current: KubeObject) => Promise<void>): Promise<KubeObject> {
    return this.inner.delete(key, preconditions, validateDeletion);
  }
  count(prefix: string): Promise<number> { return this.inner.count(prefix); }
  currentRevision(): Promise<string> { return this.inner.currentRevision(); }

  async watch(key: string, opts: WatchOptions): Promise<WatchStream> {
    const rv = opts.resourceVersion ?? '';
    const cache = this.cacheFor(key);
    // A revision etcd compacted away is answered by etcd (410), as without the cache, even
    // when the ring still holds its events: clients see one behaviour whatever serves them.
    if (cache && !opts.sendInitialEvents && /^\d*$/.test(rv) && !(rv !== '' && rv !== '0' && await this.inner.historyCompacted(Number(rv)))) {
      const stream = await cache.watch(key, opts.recursive, rv === '' ? 0 : Number(rv));
      if (stream) return stream;
    }
    return this.inner.watch(key, opts);
  }

  stop(): void {
    for (const c of this.caches.values()) c.stop();
  }

  private cacheFor(key: string): WatchCache | undefined {
    const k = key.endsWith('/') ? key : `${key}/`;
    const root = this.roots.find((r) => k.startsWith(r));
    return root ? this.caches.get(root) : undefined;
  }

  /** For tests and metrics: client watches served from the cache, by resource root. */
  cachedWatchers(): Record<string, number> {
    return Object.fromEntries([...this.caches].map(([root, c]) => [root, c.watcherCount]));
  }
}

export type { WatchCacheOptions };
