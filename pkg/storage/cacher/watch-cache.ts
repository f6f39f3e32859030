// One resource's watch cache in this replica: a single etcd watch over the resource's
// key range, each event decoded once, kept in a ring of recent events, and fanned out to
// every client watch whose key matches. A watch from a revision the ring still covers
// replays the ring and then follows live; anything else is the caller's to serve from
// etcd directly (so correctness never depends on the cache's size).
import type { Etcd3 } from 'etcd3';
import { AsyncQueue } from '../../util/async-queue.js';
import type { WatchEvent, WatchStream } from '../interfaces.js';
import { prefixEnd } from '../etcd/keys.js';
import { bookmarkEvent, expiredEvent, toWatchEvent } from '../etcd/watch.js';
import { watchRange, type RangeWatch } from '../etcd/watcher/range-watch.js';

interface CachedEvent { key: string; rev: number; event: WatchEvent }

interface Watcher {
  /** Exact key, or a prefix ending in '/'. */
  key: string;
  exact: boolean;
  /** Events at or below this revision are not for this watcher. */
  after: number;
  queue: AsyncQueue<WatchEvent>;
  stop(): void;
}

export interface WatchCacheOptions {
  /** Events kept for watches that resume from a revision (upstream: watch cache size). */
  capacity: number;
  /** A watcher with more undelivered events than this is closed; its client re-watches. */
  maxPending: number;
}

export class WatchCache {
  private ring: CachedEvent[] = [];
  private ringStart = 0;
  /** Every event after this revision is in the ring. */
  private since = 0;
  /** The newest revision the cache has seen (events or progress). */
  private rev = 0;
  private watchers = new Set<Watcher>();
  private source?: RangeWatch;
  private ready?: Promise<void>;
  private stopped = false;

  constructor(private readonly client: Etcd3, readonly root: string, private readonly opts: WatchCacheOptions,
    private readonly currentRevision: () => Promise<string>) {}

  /** Starts the etcd watch on first use; resolves once the cache knows its starting revision. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      const current = Number(await this.currentRevision());
      this.since = current;
      this.rev = current;
      const k = Buffer.from(this.root);
      this.source = watchRange(this.client, { key: k, rangeEnd: prefixEnd(k), startRevision: current + 1, prevKv: true, progressNotify: true });
      void this.pump(this.source);
    })();
    return this.ready;
  }

  stop(): void {
    this.stopped = true;
    this.source?.close();
    for (const w of [...this.watchers]) w.stop();
  }

  /**
   * A watch of `key` (exact, or a prefix when `recursive`) from revision `from` (0: from
   * the cache's present); undefined when the ring no longer covers `from`.
   */
  async watch(key: string, recursive: boolean, from: number): Promise<WatchStream | undefined> {
    await this.start();
    if (this.stopped) return undefined;
    const after = from === 0 ? this.rev : from;
    if (after < this.since) return undefined;
    const queue = new AsyncQueue<WatchEvent>();
    const prefix = recursive && !key.endsWith('/') ? `${key}/` : key;
    const w: Watcher = {
      key: prefix, exact: !recursive, after, queue,
      stop: () => { this.watchers.delete(w); queue.close(); },
    };
    // Where the stream starts, so the consumer's first bookmark has a revision.
    if (after <= this.rev) queue.push(bookmarkEvent(String(after)));
    for (let i = this.ringStart; i < this.ring.length; i++) {
      const e = this.ring[i];
      if (e.rev > after && this.matches(w, e.key)) queue.push(e.event);
    }
    this.watchers.add(w);
    return {
      stop: w.stop,
      [Symbol.asyncIterator]: () => ({
        next: () => queue.next(),
        return: async () => { w.stop(); return { value: undefined, done: true }; },
      }),
    };
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  private matches(w: Watcher, key: string): boolean {
    return w.exact ? key === w.key : key.startsWith(w.key);
  }

  private async pump(source: RangeWatch): Promise<void> {
    for await (const msg of source) {
      if (this.stopped) break;
      if (msg.type === 'events') {
        for (const ev of msg.events) this.dispatch(ev.kv.key.toString(), Number(ev.kv.mod_revision), toWatchEvent(ev));
      } else if (msg.type === 'progress') {
        const rev = Number(msg.revision);
        if (rev > this.rev) this.rev = rev;
        for (const w of this.watchers) if (rev > w.after) this.deliver(w, bookmarkEvent(String(rev)));
      } else {
        // The shared watch cannot go on (history compacted away, or an etcd error): every
        // client is ended as a watch from etcd would end, and the cache starts afresh.
        const end = msg.type === 'compacted'
          ? expiredEvent(`too old resource version: ${msg.lastRevision} (${msg.compactRevision - 1})`)
          : expiredEvent('the watch cache was restarted');
        for (const w of [...this.watchers]) { w.queue.push(end); w.stop(); }
        this.reset();
        return;
      }
    }
  }

  private dispatch(key: string, rev: number, event: WatchEvent): void {
    if (rev > this.rev) this.rev = rev;
    if (event.type !== 'ERROR') {
      this.ring.push({ key, rev, event });
      if (this.ring.length - this.ringStart > this.opts.capacity) {
        this.since = this.ring[this.ringStart].rev;
        this.ringStart++;
        // Compact the backing array now and then instead of shifting on every event.
        if (this.ringStart > this.opts.capacity) { this.ring = this.ring.slice(this.ringStart); this.ringStart = 0; }
      }
    }
    for (const w of this.watchers) {
      if (rev <= w.after || !this.matches(w, key)) continue;
      this.deliver(w, event);
      if (event.type === 'ERROR') w.stop();
    }
  }

  private deliver(w: Watcher, event: WatchEvent): void {
    if (w.queue.size >= this.opts.maxPending) {
      // A watcher this far behind would hold every other one back: end it, as upstream's
      // cacher does; its client re-watches from the last revision it saw.
      w.stop();
      return;
    }
    w.queue.push(event);
  }

  private reset(): void {
    this.source?.close();
    this.source = undefined;
    this.ready = undefined;
    this.ring = [];
    this.ringStart = 0;
  }
}
