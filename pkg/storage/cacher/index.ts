// Storage with a watch cache per resource (upstream's cacher): writes go to etcd; reads
// at resourceVersion "0" (any) or NotOlderThan a revision the cache has reached (named,
// or a revision without a match and without a limit, as upstream reads it), and watches,
// are served from the resource's WatchCache; a watch from a revision its ring has let go
// of gets 410 Expired there, as upstream's, and only one from before the cache existed
// goes to etcd. Consistent lists (resourceVersion unset) are served from the cache too once
// a probe of etcd shows the cache has caught up (beyond upstream v1.28, as its later
// ConsistentListFromCache), and so are their pages: the first once a probe of the keys it
// read shows them etcd's present (at etcd's revision), later ones at their continue token's, rolled back through the cache's ring of
// events (etcd answers instead when the ring no longer reaches back that far; a page at a
// revision the compactors have compacted is 410 Expired, as etcd answers it). Exact reads stay with etcd. A list or watch
// that names an indexed field value (ListOptions.index, WatchOptions.trigger) is served
// through the cache's index and triggers; etcd, which has neither, ignores the hint.
import type { Etcd3 } from 'etcd3';
import {
  StorageError,
  type GetOptions, type ListOptions, type ListResult, type PageAhead, type Preconditions, type Storage, type TryUpdate,
  type WatchOptions, type WatchStream, type WriteOptions,
} from '../interfaces.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deepCopy, type KubeObject } from '../../runtime/object.js';
import { WatchCache, type WatchCacheOptions } from './watch-cache.js';
import { probePage, probeRange, type RangeProbe } from './freshness.js';
import { sharedQuestion } from './shared-probe.js';
import { guardEtcd } from '../etcd/boundary.js';
import { readPageAt, type PageAt } from './paged-read.js';
import { CompactionChecks, type KnownCompaction } from './compaction-checks.js';
import { askCurrentRevision } from '../etcd/compaction-question.js';
import { longestRoot } from './roots.js';
import { decodeContinue, encodeContinue, ExpiredContinueError, type ContinueToken } from '../etcd/continue.js';

/** How long a consistent list waits for the cache to catch up before reading etcd. */
const consistentReadWaitMs = 250;

export class CachedStorage implements Storage {
  private caches = new Map<string, WatchCache>();
  /** Per cache, its freshness probe, shared by consistent lists that ask at once. */
  private probes = new WeakMap<WatchCache, () => Promise<RangeProbe>>();
  /**
   * First pages handed over before etcd's word on them (firstPage): not while they keep
   * being replaced (etcd's revision moving between lists, with writes to other resources),
   * when each costs its decoration and encoding twice.
   */
  private handEarly = new Hunch();
  /** etcdStillAt's question, asked while etcd keeps being found at the cache's revision. */
  private quiet = new Hunch();
  /** Per cache, a catchUp a first page started so that its continue pages are served from memory. */
  private advancing = new WeakMap<WatchCache, Promise<unknown>>();
  private readonly rootOf: (key: string) => string | undefined;
  /** Key prefixes served from a cache, each ending in '/'. */
  private readonly roots = new Set<string>();

  /**
   * `roots`: the resources' key prefixes (the server's, from the scheme), or a function
   * naming the root of a key (tests, whose prefixes are made up per test).
   */
  private readonly client: Etcd3;
  private readonly compaction: CompactionChecks;

  /** `opts.knownCompaction`: answers continue pages' compaction check without etcd while it is current. */
  constructor(private readonly inner: Storage & { currentRevision(): Promise<string>; historyCompacted(rev: number): Promise<boolean> },
    client: Etcd3, roots: string[] | ((key: string) => string | undefined), private readonly opts: CachedStorageOptions) {
    this.client = guardEtcd(client);
    this.compaction = new CompactionChecks((rev) => inner.historyCompacted(rev));
    if (typeof roots === 'function') {
      this.rootOf = roots;
    } else {
      for (const r of roots) this.addRoot(r);
      this.rootOf = (key) => longestRoot(this.roots, key);
    }
  }

  create(key: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject> { return this.inner.create(key, obj, opts); }
  async get(key: string, opts?: GetOptions): Promise<KubeObject> {
    const cache = opts?.resourceVersion === '0' ? this.cacheFor(key) : undefined;
    const state = cache ? await cache.read(key, false) : undefined;
    if (!state) {
      // etcd answers (a consistent read); the cache's copy saves decoding what it sends.
      const knownCopy = opts?.knownCopy ?? this.existingCache(key)?.peek(key);
      // Object.assign: a spread with a member added costs about 1 us (Node 20).
      return this.inner.get(key, knownCopy ? Object.assign({}, opts, { knownCopy }) : opts);
    }
    if (state.items.length === 0) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    // Callers may change what they get; the cache's copy is shared.
    return opts?.readOnly ? state.items[0]! : deepCopy(state.items[0]);
  }

  async list(prefix: string, opts: ListOptions): Promise<ListResult> {
    const rv = opts.resourceVersion ?? '';
    const match = opts.resourceVersionMatch ?? '';
    // As upstream's cacher (shouldDelegateList): a list at revision 0 (not a continuation)
    // is served whole from memory, its limit ignored, so that client-go's reflectors (which
    // list with rv=0 and limit=500) neither page through etcd nor take paging for granted
    // on later re-lists.
    const anyRevision = rv === '0' && match !== 'Exact' && !opts.continue;
    if (opts.limit && opts.limit > 0 && !anyRevision) return (await this.pageFromCache(prefix, opts.limit, opts)) ?? this.inner.list(prefix, opts);
    // A revision without a match, unpaged, means NotOlderThan (upstream's shouldDelegateList):
    // how client-go's reflector re-lists after a watch's 410, so a herd of them stays in memory.
    const notOlder = (match === 'NotOlderThan' || (match === '' && rv !== '0')) && /^\d+$/.test(rv);
    const cache = anyRevision || (notOlder && !opts.limit && !opts.continue) ? this.cacheFor(prefix) : undefined;
    if (cache && (anyRevision || (await cache.revision()) >= Number(rv))) {
      const state = await cache.read(prefix, true, opts.index);
      if (state) {
        const items = opts.predicate ? state.items.filter(opts.predicate) : state.items;
        return { items, resourceVersion: String(state.revision) };
      }
    }
    const consistent = rv === '' && match === '' && !opts.limit && !opts.continue ? this.cacheFor(prefix) : undefined;
    if (consistent) {
      const state = await consistent.readConsistent(prefix, true, this.probeOf(consistent), consistentReadWaitMs, opts.index);
      if (state) {
        const items = opts.predicate ? state.items.filter(opts.predicate) : state.items;
        return { items, resourceVersion: String(state.revision) };
      }
    }
    return this.inner.list(prefix, opts);
  }
  /**
   * A page of a consistent list (resourceVersion unset), or a continue page at its token's
   * revision; undefined when the cache cannot serve it and etcd must.
   */
  private async pageFromCache(prefix: string, limit: number, opts: ListOptions): Promise<ListResult | undefined> {
    const cache = this.cacheFor(prefix);
    if (!cache) return undefined;
    const keyPrefix = prefix.endsWith('/') ? prefix : `${prefix}/`;
    const probe = this.probeOf(cache);
    let at: number | undefined;
    let start = keyPrefix;
    let confirmed: Promise<void> | undefined;
    if (opts.continue) {
      const token = servableToken(opts.continue, prefix);
      if (!token) return undefined;
      at = token.rv;
      start = keyPrefix + token.start;
      if ((await cache.revision()) < at) await this.advancing.get(cache);
      if ((await cache.revision()) < at && ((await cache.catchUp(probe, consistentReadWaitMs)) ?? 0) < at) return undefined;
      confirmed = this.notCompacted(at, token.start);
      // A deferring caller encodes the page during etcd's round trip (about half a page's time).
      if (!opts.deferConfirmation) await confirmed;
    } else {
      if ((opts.resourceVersion ?? '') !== '' || (opts.resourceVersionMatch ?? '') !== '') return undefined;
      return this.firstPage(prefix, cache, probe, keyPrefix, limit, opts);
    }
    const result = this.pageAt(cache, keyPrefix, at, start, limit, opts);
    if (result && confirmed && opts.deferConfirmation) result.confirmed = confirmed;
    return result;
  }

  /**
   * A consistent list's first page, from memory once etcd shows that the keys it read are
   * etcd's present. Read at the cache's revision C; etcd's revision still C (etcdStillAt:
   * nothing written since) shows it at once. Otherwise probePage at etcd's revision R: a
   * newest modification at most C and the same key count in the page's range mean every key
   * of that range at R is in the cache as of C, with its value, and no other, so the page is
   * etcd's at R (its remainingItemCount etcd's count). That reads about the page's values in
   * etcd (as upstream's first page, a range of `limit` keys), where probeRange reads every
   * value of the resource. Otherwise the resource is probed whole (catchUp), and etcd answers
   * if that does not show the cache current. A caller that defers confirmation encodes the
   * page meanwhile (unless such pages keep being replaced: handEarly); `confirmed` resolves
   * with nothing when it stands (R = C), otherwise with the page at R (the same items) or
   * the one read after the whole probe.
   */
  private async firstPage(prefix: string, cache: WatchCache, probe: () => Promise<RangeProbe>, keyPrefix: string,
    limit: number, opts: ListOptions): Promise<ListResult | undefined> {
    const readAt = await cache.revision();
    const view = cache.historyView(readAt);
    const page = view && readPageAt(view, keyPrefix, keyPrefix, limit, opts.predicate);
    const afterWholeProbe = async (): Promise<ListResult | undefined> => {
      const at = await cache.catchUp(probe, consistentReadWaitMs);
      return at === undefined ? undefined : this.pageAt(cache, keyPrefix, at, keyPrefix, limit, opts);
    };
    if (!page) return afterWholeProbe();
    const more = page.lastKey !== undefined && page.remaining > 0;
    // The page at etcd's revision, undefined when it is the one read (nothing changed since),
    // null when the page's range changed after C: the whole resource is probed then.
    const atEtcd = (async (): Promise<ListResult | undefined | null> => {
      if (await this.etcdStillAt(cache, readAt)) return undefined;
      const p = await probePage(this.client, keyPrefix, more ? `${page.lastKey}\0` : undefined);
      if (p.maxModRevision > readAt || p.count !== page.read) return null;
      if (p.revision === readAt) return undefined;
      // Its continue pages are read at R from memory once the cache has shown it holds R.
      this.advanceInBackground(cache, probe);
      return pageResult(page, keyPrefix, p.revision, opts, p.listed - p.count);
    })();
    const read = pageResult(page, keyPrefix, readAt, opts);
    const early = opts.deferConfirmation === true && this.handEarly.worthTrying(cache);
    if (!early) {
      const settled = await atEtcd;
      return settled === null ? afterWholeProbe() : settled ?? read;
    }
    read.confirmed = atEtcd.then(async (settled) => {
      this.handEarly.record(cache, settled === undefined);
      if (settled !== null) return settled;
      return (await afterWholeProbe()) ?? this.inner.list(prefix, { ...opts, deferConfirmation: false });
    });
    read.confirmed.catch(() => undefined);
    // The probe's request leaves for etcd only once the event loop turns (grpc-js over Node's
    // HTTP/2 session): what the caller does to the page first (500 decorations, the
    // encoding's first batch) would hold it back by as long.
    await nextTurn();
    return read;
  }

  /**
   * Whether etcd's revision is still `at`, the cache's: nothing written to etcd since, so
   * what the cache read at `at` is etcd's present. A range of one absent key (the cache's
   * root itself, a key no object has, inside --etcd-prefix as etcd auth may require), where
   * probePage makes etcd read and sort the page's values. Not asked while the answer keeps
   * being no (other resources' writes keep etcd past any one cache, and each no costs the
   * page a second round trip).
   */
  private async etcdStillAt(cache: WatchCache, at: number): Promise<boolean> {
    if (!this.quiet.worthTrying(cache)) return false;
    const still = (await askCurrentRevision(this.client, cache.root)) === at;
    this.quiet.record(cache, still);
    return still;
  }

  /**
   * Starts the whole resource's probe (catchUp) unless one is under way, so that the
   * continue pages of a first page answered at a revision past the cache's find the cache
   * there; they (and their reading ahead) wait for it instead of probing again.
   */
  private advanceInBackground(cache: WatchCache, probe: () => Promise<RangeProbe>): void {
    if (this.advancing.has(cache)) return;
    const done = cache.catchUp(probe, consistentReadWaitMs).catch(() => undefined).finally(() => this.advancing.delete(cache));
    this.advancing.set(cache, done);
  }

  /**
   * A continue page read ahead (Storage.pageAhead): from the cache's memory only, and
   * only when it needs nothing from etcd first. Its objects at the token's revision never
   * change; whether etcd would still answer (compaction) is asked once the client asks.
   */
  async pageAhead(prefix: string, opts: ListOptions): Promise<PageAhead | undefined> {
    const cache = this.existingCache(prefix);
    if (!cache || !opts.continue || !opts.limit || opts.limit <= 0) return undefined;
    const token = servableToken(opts.continue, prefix);
    if (!token) return undefined;
    if ((await cache.revision()) < token.rv) await this.advancing.get(cache);
    if ((await cache.revision()) < token.rv) return undefined;
    const { rv: at, start } = token;
    const keyPrefix = prefix.endsWith('/') ? prefix : `${prefix}/`;
    const page = this.pageAt(cache, keyPrefix, at, keyPrefix + start, opts.limit, opts);
    return page && { ...page, confirm: () => this.notCompacted(at, start), confirmAsks: () => this.compactionUnknown(at) };
  }

  /** Up to `limit` objects from key `start` at revision `at`, or undefined when the ring no longer reaches back. */
  private pageAt(cache: WatchCache, keyPrefix: string, at: number, start: string, limit: number, opts: ListOptions): ListResult | undefined {
    const view = cache.historyView(at);
    return view && pageResult(readPageAt(view, keyPrefix, start, limit, opts.predicate), keyPrefix, at, opts);
  }

  /** Whether settling a read at revision `at` asks etcd (the compactors' revision not followed now). */
  private compactionUnknown(at: number): boolean {
    return this.opts.knownCompaction?.historyCompacted(at - 1) === undefined;
  }

  /**
   * Resolves while etcd still holds revision `at`; once etcd has compacted it, rejects as
   * etcd's list would: 410 Expired with a token to finish the list from `start`. Known
   * without etcd while the compactors' revision is followed (opts.knownCompaction, as
   * upstream 1.34's snapshots consult its compactor), otherwise asked of etcd
   * (CompactionChecks shares one question between concurrent ones). Rejections count as
   * handled: a caller that falls back to etcd never awaits it.
   */
  private notCompacted(at: number, start: string): Promise<void> {
    const known = this.opts.knownCompaction?.historyCompacted(at - 1);
    const check = (known === undefined ? this.compaction.compacted(at - 1) : Promise.resolve(known)).then((compacted) => {
      if (compacted) throw new ExpiredContinueError(encodeContinue(-1, start));
    });
    check.catch(() => undefined);
    return check;
  }

  guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound?: boolean, opts?: WriteOptions): Promise<{ object: KubeObject; created: boolean }> {
    // The cache's copy saves etcd a read and us a decode; etcd's check on the write decides.
    const cachedExisting = this.cachedCopy(key);
    return this.inner.guaranteedUpdate(key, preconditions, tryUpdate, ignoreNotFound, cachedExisting ? Object.assign({}, opts, { cachedExisting }) : opts);
  }
  delete(key: string, preconditions?: Preconditions, validateDeletion?: (current: KubeObject) => Promise<void>,
    cachedExisting?: KubeObject): Promise<KubeObject> {
    // As upstream's cacher: the cache's copy is tried first (etcd's revision check decides).
    const cached = cachedExisting ?? this.cachedCopy(key);
    return this.inner.delete(key, preconditions, validateDeletion, cached);
  }
  /**
   * The cache's copy of the object at `key`, if its resource is cached. A resource written
   * before anything lists or watches it gets its cache now (upstream starts every cache
   * with the server), so its next writes start from memory: a kubelet's Lease, renewed
   * every 10 s and watched by nobody, otherwise cost a read of etcd before each write.
   */
  private cachedCopy(key: string): KubeObject | undefined {
    const existing = this.existingCache(key);
    if (existing) return existing.peek(key);
    // Not awaited: this write reads etcd as before; a failed start is retried on next use.
    this.cacheFor(key)?.start().catch(() => undefined);
    return undefined;
  }
  count(prefix: string): Promise<number> { return this.inner.count(prefix); }
  currentRevision(): Promise<string> { return this.inner.currentRevision(); }

  async watch(key: string, opts: WatchOptions): Promise<WatchStream> {
    const rv = opts.resourceVersion ?? '';
    const cache = this.cacheFor(key);
    // A revision etcd compacted away is answered by etcd (410), as without the cache, even
    // when the ring still holds its events: clients see one behaviour whatever serves them.
    if (cache && opts.sendInitialEvents && /^\d*$/.test(rv)) {
      const stream = await cache.watch(key, opts.recursive, rv === '' ? 0 : Number(rv), true, opts.trigger);
      if (stream) return stream;
    } else if (cache && /^\d*$/.test(rv) && !(rv !== '' && rv !== '0' && await this.compaction.compacted(Number(rv)))) {
      const stream = await cache.watch(key, opts.recursive, rv === '' ? 0 : Number(rv), false, opts.trigger);
      if (stream) return stream;
    }
    return this.inner.watch(key, opts);
  }

  stop(): void {
    for (const c of this.caches.values()) c.stop();
  }

  /** Caches a resource that is served from now on (a custom resource). */
  addRoot(root: string): void {
    const r = root.endsWith('/') ? root : `${root}/`;
    this.roots.add(r);
  }

  /** Drops the cache of a resource no longer served; its watchers end and re-list. */
  removeRoot(root: string): void {
    const r = root.endsWith('/') ? root : `${root}/`;
    this.roots.delete(r);
    this.caches.get(r)?.stop();
    this.caches.delete(r);
  }

  /** The cache of `key`'s resource if one was made; unlike cacheFor, makes none. */
  private existingCache(key: string): WatchCache | undefined {
    return this.caches.get(this.rootOf(key) ?? '');
  }

  private probeOf(cache: WatchCache): () => Promise<RangeProbe> {
    let probe = this.probes.get(cache);
    if (!probe) {
      probe = sharedQuestion(() => probeRange(this.client, cache.root));
      this.probes.set(cache, probe);
    }
    return probe;
  }

  private cacheFor(key: string): WatchCache | undefined {
    const root = this.rootOf(key);
    if (!root) return undefined;
    let cache = this.caches.get(root);
    if (!cache) {
      cache = new WatchCache(this.client, root, this.opts);
      this.caches.set(root, cache);
    }
    return cache;
  }

  /** For tests and metrics: client watches served from the cache, by resource root. */
  cachedWatchers(): Record<string, number> {
    return Object.fromEntries([...this.caches].map(([root, c]) => [root, c.watcherCount]));
  }
}

export type { WatchCacheOptions };

export interface CachedStorageOptions extends WatchCacheOptions {
  knownCompaction?: KnownCompaction;
}

/**
 * A shortcut that pays in some clusters only, per cache: taken while it keeps paying, and
 * after two misses in a row only every 16th time.
 */
class Hunch {
  private misses = new WeakMap<WatchCache, number>();
  worthTrying(cache: WatchCache): boolean {
    const misses = this.misses.get(cache) ?? 0;
    if (misses < 2 || misses % 16 === 0) return true;
    this.misses.set(cache, misses + 1);
    return false;
  }
  record(cache: WatchCache, paid: boolean): void {
    this.misses.set(cache, paid ? 0 : (this.misses.get(cache) ?? 0) + 1);
  }
}

/** A page read at revision `at` as a list answers it; `remaining`: keys after its last at `at`, when not the page's own count. */
function pageResult(page: PageAt, keyPrefix: string, at: number, opts: ListOptions, remaining = page.remaining): ListResult {
  const result: ListResult = { items: page.items, resourceVersion: String(at) };
  if (page.lastKey !== undefined && remaining > 0) {
    result.continue = encodeContinue(at, `${page.lastKey.slice(keyPrefix.length)}\0`);
    if (!opts.filtered) result.remainingItemCount = remaining;
  }
  return result;
}

/** A continue token the cache may serve: well formed and at a revision (else etcd answers, with its own errors). */
function servableToken(token: string, prefix: string): ContinueToken | undefined {
  let decoded: ContinueToken;
  try { decoded = decodeContinue(token, prefix); } catch { return undefined; }
  return decoded.rv > 0 ? decoded : undefined;
}
