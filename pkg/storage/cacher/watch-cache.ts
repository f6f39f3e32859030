// One resource's watch cache in this replica: the resource's objects listed once at a
// known revision, then a single etcd watch over its key range from the revision after;
// each event decoded once, applied to the objects, kept in a ring of recent events, and
// fanned out to every client watch whose key matches. A watch from a revision the ring
// still covers replays the ring and then follows live; a watch asking for the current
// state gets it from the objects; a watch from a revision the ring has since let go of
// ends at once with 410 Expired, as upstream's cacher answers, and its client re-lists
// (the ring is sized by time: event-ring.ts; its superseded versions are kept frozen,
// not decoded: history.ts). Only a watch from before this cache first
// listed is the caller's to serve from etcd: caches here start on a resource's first use,
// upstream's at server start, so such a revision is one upstream's cache would cover.
// Who gets which event is watchers.ts's; a list on an indexed field reads its index.
import type { Etcd3 } from 'etcd3';
import { byRevision } from './by-revision.js';
import { AsyncQueue } from '../../util/async-queue.js';
import type { KubeObject } from '../../runtime/object.js';
import type { IndexedField, WatchEvent, WatchStream } from '../interfaces.js';
import { decodeStored } from '../etcd/stored-value.js';
import type { ValueTransformer } from '../value/encryption-at-rest.js';
import { prefixEnd } from '../etcd/keys.js';
import { reportProgress } from '../etcd/progress.js';
import { bookmarkEvent, expiredEvent, initialEventsEndAnnotation, tooOldMessage } from '../etcd/watch.js';
import { decodeWithCached, decodeWithPrevious } from './decode-event.js';
import { markShared } from '../../runtime/serializer/shared-encodings.js';
import { watchRange, type RangeWatch } from '../etcd/watcher/range-watch.js';
import type { RangeProbe } from './freshness.js';
import { FieldIndexes } from './field-index.js';
import { WatcherSet } from './watchers.js';
import { CacheWatcher } from './cache-watcher.js';
import type { HistoryView } from './paged-read.js';
import { SortedKeys } from './sorted-keys.js';
import type { RingSizing } from './event-ring.js';
import { History } from './history.js';
import type { Version } from './cold-version.js';

export interface WatchCacheOptions {
  /** How many events are kept for watches that resume from a revision: upstream's sizing unless narrowed (tests). */
  ring?: Partial<RingSizing>;
  /** A watcher with more undelivered events than this is closed; its client re-watches. */
  maxPending: number;
  /** Encryption at rest: how values are read from etcd. */
  transformer?: ValueTransformer;
  /** How often each watcher is told the revision the cache has reached (default 5 s). */
  progressEveryMs?: number;
}

/**
 * Upstream's bookmarks carry the cacher's newest revision, whether or not the watcher's
 * filter matched its events; etcd reports progress only while a watch is idle, which a
 * busy resource's never is. Without this a kubelet's watch of its own pods would resume
 * from its last own event, long out of the ring, and be answered 410.
 */
const defaultProgressEveryMs = 5_000;

export class WatchCache {
  private readonly history: History;
  /** The revision the cache listed at when it (last) started: the ring holds every event after it until it drops one. */
  private listedAt = 0;
  /** The revision of the cache's first list: a watch from before it is one this cache never saw. */
  private firstListedAt?: number;
  /** The newest revision the cache has seen (events or progress). */
  private rev = 0;
  private readonly watchers: WatcherSet;
  private indexes = new FieldIndexes();
  /** The resource's current objects by etcd key, as of `rev`. */
  private objects = new Map<string, KubeObject>();
  /** The keys of `objects` in etcd's (byte) order, so a list reads a slice, not a sort. */
  private readonly keys = new SortedKeys();
  /** Woken whenever `rev` moves. */
  private revWaiters = new Set<() => void>();
  /** Bumped on reset, so a read that waited can tell its cache started over. */
  private epoch = 0;
  /** A value in the range could not be decoded: the cache serves nothing, etcd does. */
  private unusable = false;
  private source?: RangeWatch;
  private progressTimer?: ReturnType<typeof setInterval>;
  private ready?: Promise<void>;
  private stopped = false;

  constructor(private readonly client: Etcd3, readonly root: string, private readonly opts: WatchCacheOptions) {
    this.history = new History(opts.ring, (key, obj) => this.indexes.valuesOf(key, obj));
    this.watchers = new WatcherSet(opts.maxPending);
  }

  /**
   * Every event after this revision is in the ring: the list's revision until the ring
   * drops an event, then (as upstream's oldest event minus one) the revision before its
   * oldest event, unless that event shares its revision (a transaction) with a dropped one.
   */
  private get since(): number {
    const dropped = this.history.lastDropped;
    if (dropped === undefined) return this.listedAt;
    const first = this.history.oldest!.rev;
    return first > dropped ? first - 1 : dropped;
  }

  /**
   * Lists the range at one revision and starts the etcd watch after it, on first use;
   * resolves once the cache holds the objects as of that revision.
   */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    const starting = (async () => {
      const k = Buffer.from(this.root);
      const end = prefixEnd(k);
      let revision = '';
      let from = k;
      this.objects.clear();
      this.keys.clear();
      this.indexes.clear();
      for (;;) {
        const page = await this.client.kv.range({ key: from, range_end: end, limit: 1000, ...(revision ? { revision } : {}) });
        revision ||= page.header.revision;
        for (const kv of page.kvs) {
          try {
            const key = kv.key.toString();
            this.objects.set(key, markShared(await decodeStored(this.opts.transformer, kv, kv.mod_revision)));
            this.keys.insert(key);
          } catch {
            this.unusable = true;
          }
        }
        if (!page.more || page.kvs.length === 0) break;
        from = Buffer.concat([page.kvs[page.kvs.length - 1].key, Buffer.from([0])]);
      }
      const current = Number(revision);
      this.listedAt = current;
      this.firstListedAt ??= current;
      this.rev = current;
      this.source = watchRange(this.client, { key: k, rangeEnd: end, startRevision: current + 1, progressNotify: true });
      void this.pump(this.source);
      if (!this.progressTimer) {
        this.progressTimer = setInterval(() => this.tellProgress(), this.opts.progressEveryMs ?? defaultProgressEveryMs);
        this.progressTimer.unref();
      }
    })();
    // A list that failed (etcd unreachable) fails this read only: the next one lists again.
    this.ready = starting;
    starting.catch(() => { if (this.ready === starting) this.ready = undefined; });
    return starting;
  }

  /** The revision up to which the cache has applied every change. */
  async revision(): Promise<number> {
    await this.start();
    return this.rev;
  }

  /**
   * Objects under `prefix` (or the one at an exact key) in key order, as of revision(),
   * or undefined when the cache cannot serve reads.
   */
  async read(key: string, recursive: boolean, index?: IndexedField): Promise<{ items: KubeObject[]; revision: number } | undefined> {
    await this.start();
    return this.readNow(key, recursive, index);
  }

  /**
   * Objects under `key` at a revision not older than etcd's at the time of the call (a
   * consistent read served from memory), or undefined when the cache cannot show that it
   * has caught up within `maxWaitMs`; the caller then reads etcd.
   */
  async readConsistent(key: string, recursive: boolean, probe: () => Promise<RangeProbe>, maxWaitMs: number, index?: IndexedField):
    Promise<{ items: KubeObject[]; revision: number } | undefined> {
    if (await this.catchUp(probe, maxWaitMs) === undefined) return undefined;
    return this.readNow(key, recursive, index);
  }

  /**
   * Shows the cache holds etcd's present and returns the revision it then holds, or
   * undefined when it cannot show that within `maxWaitMs`.
   *
   * From one probe of the range (etcd revision R, key count, newest mod revision M): once
   * the cache has applied M, every create and update up to R is in it; deletions up to R
   * are too when the cache has reached R itself, or when its key count equals etcd's (a
   * missed deletion would leave it with more keys, as nothing was created after M). The
   * cache then holds the state at R, as if etcd had reported progress up to R.
   */
  async catchUp(probe: () => Promise<RangeProbe>, maxWaitMs: number): Promise<number | undefined> {
    await this.start();
    const epoch = this.epoch;
    if (this.unusable || this.stopped) return undefined;
    const p = await probe();
    const deadline = Date.now() + maxWaitMs;
    while (this.rev < p.maxModRevision && epoch === this.epoch) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await this.revisionMoved(left);
    }
    if (epoch !== this.epoch || (this.rev < p.revision && this.objects.size !== p.count)) return undefined;
    this.advance(p.revision);
    return this.rev;
  }

  /**
   * The present and what changed after revision `at`, or undefined when the ring does not
   * reach back to `at` (or the cache has not reached it, or serves nothing).
   */
  historyView(at: number): HistoryView | undefined {
    if (this.unusable || this.stopped || !this.source || at < this.since || at > this.rev) return undefined;
    const then = new Map<string, Version | undefined>();
    for (const e of this.history.after(at)) if (!then.has(e.key)) then.set(e.key, e.before);
    return { keys: this.keys, objects: this.objects, then };
  }

  /**
   * read() without waiting: callers that must not let an event in between use it. With
   * `index`, only objects with that field value (a subset the caller's predicate narrows
   * further), still in key order.
   */
  private readNow(key: string, recursive: boolean, index?: IndexedField): { items: KubeObject[]; revision: number } | undefined {
    if (this.unusable || this.stopped) return undefined;
    if (!recursive) {
      const o = this.objects.get(key);
      return { items: o ? [o] : [], revision: this.rev };
    }
    const prefix = key.endsWith('/') ? key : `${key}/`;
    const indexed = index && this.indexes.keys(index, this.objects);
    if (indexed) {
      const keys = [...indexed].filter((k) => k.startsWith(prefix)).sort();
      return { items: keys.map((k) => this.objects.get(k)!), revision: this.rev };
    }
    const items: KubeObject[] = [];
    const keys = this.keys;
    for (let i = keys.lowerBound(prefix); i < keys.size; i++) {
      const k = keys.at(i);
      if (!k.startsWith(prefix)) break;
      items.push(this.objects.get(k)!);
    }
    return { items, revision: this.rev };
  }

  /** The object at `key` as the cache holds it now, if it is serving (no waiting, no copy). */
  peek(key: string): KubeObject | undefined {
    return this.unusable || this.stopped || !this.source ? undefined : this.objects.get(key);
  }

  private revisionMoved(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => { clearTimeout(timer); this.revWaiters.delete(done); resolve(); };
      const timer = setTimeout(done, timeoutMs);
      this.revWaiters.add(done);
    });
  }

  private advance(rev: number): void {
    if (rev <= this.rev) return;
    this.rev = rev;
    for (const wake of [...this.revWaiters]) wake();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.progressTimer);
    this.source?.close();
    for (const w of [...this.watchers.all]) w.stop();
  }

  /**
   * A watch of `key` (exact, or a prefix when `recursive`) from revision `from` (0: from
   * the cache's present): one that ends with 410 Expired when the ring no longer covers
   * `from`; undefined when `from` is older than the cache (or it cannot serve), for etcd.
   */
  async watch(key: string, recursive: boolean, from: number, initialState = false, trigger?: IndexedField): Promise<WatchStream | undefined> {
    await this.start();
    if (this.stopped || (initialState && this.unusable)) return undefined;
    // The initial state is the cache's present, which must not be older than asked for.
    if (initialState && from > this.rev) return undefined;
    const after = from === 0 || initialState ? this.rev : from;
    if (after < this.since) {
      if (this.firstListedAt === undefined || after < this.firstListedAt) return undefined;
      // Upstream's newErrWatcher: the request succeeded, its stream holds the one ERROR event.
      return endedWith(expiredEvent(tooOldMessage(after, this.since + 1)));
    }
    const prefix = recursive && !key.endsWith('/') ? `${key}/` : key;
    const read = trigger && recursive ? this.indexes.reader(trigger) : undefined;
    const w = new CacheWatcher(prefix, !recursive, after, read && trigger ? { field: trigger.field, value: trigger.value, read } : undefined, this.watchers);
    if (initialState) {
      const state = this.readNow(key, recursive, w.trigger && trigger);
      for (const o of state?.items ?? []) w.push({ type: 'ADDED', object: o });
      w.push(bookmarkEvent(String(after), { [initialEventsEndAnnotation]: 'true' }));
    } else if (after <= this.rev) {
      // Where the stream starts, so the consumer's first bookmark has a revision.
      w.push(bookmarkEvent(String(after)));
    }
    for (const e of this.history.after(after)) {
      if (this.history.concerns(w, e)) w.push(this.history.eventOf(e));
    }
    this.watchers.add(w);
    return w;
  }

  get watcherCount(): number {
    return this.watchers.all.size;
  }

  private async pump(source: RangeWatch): Promise<void> {
    for await (const msg of source) {
      if (this.stopped) break;
      if (msg.type === 'events') {
        // The events of one revision (one transaction, which may write many keys) are
        // decoded first and applied together: a reader never sees part of a transaction,
        // and the cache claims revision R only once all of R is in it.
        for (const group of byRevision(msg.events)) {
          const decoded: Array<{ key: string; event: WatchEvent; stored?: Buffer }> = [];
          for (const ev of group) {
            const key = ev.kv.key.toString();
            const pending = decodeWithCached(ev, this.objects.get(key), this.opts.transformer);
            let event = pending instanceof Promise ? await pending : pending;
            if (this.stopped || source !== this.source) return;
            if (!event) {
              try {
                event = await decodeWithPrevious(this.client, ev, this.opts.transformer);
              } catch {
                // The previous value is gone (compacted) or etcd is unreachable: start afresh.
                this.restart(expiredEvent('the watch cache was restarted'));
                return;
              }
              if (this.stopped || source !== this.source) return;
            }
            // Without a transformer a put's object is decoded from the value etcd sent as is.
            decoded.push({ key, event, stored: this.opts.transformer || ev.type !== 'Put' ? undefined : ev.kv.value });
          }
          const rev = Number(group[0].kv.mod_revision);
          for (const { key, event, stored } of decoded) this.dispatch(key, rev, event, stored);
          // Readers waiting for this revision see the objects with the whole of it applied.
          this.advance(rev);
        }
      } else if (msg.type === 'progress') {
        reportProgress(this.root);
        this.advance(Number(msg.revision));
        this.tellProgress();
      } else {
        // The shared watch cannot go on (history compacted away, or an etcd error): every
        // client is ended as a watch from etcd would end, and the cache starts afresh.
        this.restart(msg.type === 'compacted'
          ? expiredEvent(`too old resource version: ${msg.lastRevision} (${msg.compactRevision - 1})`)
          : expiredEvent('the watch cache was restarted'));
        return;
      }
    }
  }

  /** Ends every client watch with `end` and starts the cache afresh (a new list, then a new watch). */
  private restart(end: WatchEvent): void {
    for (const w of [...this.watchers.all]) { w.push(end); w.stop(); }
    this.reset();
  }

  private dispatch(key: string, rev: number, event: WatchEvent, stored?: Buffer): void {
    const before = this.objects.get(key);
    if (event.type === 'DELETED') {
      if (this.objects.delete(key)) this.keys.delete(key);
      this.indexes.update(key, before, undefined);
    } else if (event.type === 'ERROR') {
      // Its value could not be decoded: the cache no longer knows the key's current value,
      // so it serves nothing, and a later event on the key fetches its previous value.
      this.unusable = true;
      if (this.objects.delete(key)) this.keys.delete(key);
      this.indexes.update(key, before, undefined);
    } else {
      if (!before) this.keys.insert(key);
      this.objects.set(key, markShared(event.object));
      this.indexes.update(key, before, event.object);
    }
    this.history.record(key, rev, event, before, stored);
    this.watchers.fanOut(key, rev, event);
  }

  /**
   * A BOOKMARK at the cache's revision to each watcher not yet told it: every event up to it
   * was handed over. One event object for all of them, as the cache's events are shared.
   */
  private tellProgress(): void {
    if (!this.source) return;
    const rev = this.rev;
    let bookmark: WatchEvent | undefined;
    for (const w of this.watchers.all) {
      if (rev > w.after && rev > (w.told ?? 0)) { w.told = rev; this.watchers.deliver(w, (bookmark ??= bookmarkEvent(String(rev)))); }
    }
  }

  private reset(): void {
    this.source?.close();
    this.source = undefined;
    this.ready = undefined;
    this.history.clear();
    this.objects.clear();
    this.keys.clear();
    this.indexes.clear();
    this.unusable = false;
    this.epoch++;
    for (const wake of [...this.revWaiters]) wake();
  }
}

/** A watch stream that holds `event` and ends. */
function endedWith(event: WatchEvent): WatchStream {
  const queue = new AsyncQueue<WatchEvent>();
  queue.push(event);
  queue.close();
  return { stop: () => queue.close(), [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
}
