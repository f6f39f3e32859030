// How far etcd's history has been compacted, as this replica knows it without asking etcd
// per request (upstream 1.34's compactor keeps the same for ListFromCacheSnapshot). Every
// apiserver's compactor (ours, upstream's) writes the revision it compacts to into
// compact_rev_key before compacting, so a watch of that key sees every such compaction,
// and our own compactor's swaps (won or lost) tell it sooner. A compaction that does not
// write the key (`etcdctl compact`, etcd's own --auto-compaction) is not seen: upstream
// accepts that, and the watch cache only serves continue pages from its ring of about
// 75 s, beyond which etcd serves them and answers for itself.
// One tracker per etcd client, shared by every resource's cache; while its watch is not
// established (start-up, an error and the second before re-reading the key) it is not
// current, and callers ask etcd as before.
import type { Etcd3 } from 'etcd3';
import { compactRevisionIn, compactRevKey } from './compactor.js';
import { watchRange, type RangeWatch } from './watcher/range-watch.js';

/** How long after a failure the key is read and watched again (upstream: a second). */
const retryMs = 1000;

export class CompactRevisionTracker {
  /** The highest revision any compactor has compacted (or is about to) through compact_rev_key. */
  private known = 0;
  private watching = false;
  private stopped = false;
  private watch: RangeWatch | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** Call start() to follow compact_rev_key; until then only observe() feeds it and it is never current. */
  constructor(private readonly client: Etcd3, private readonly opts: { retryMs?: number; onError?: (err: unknown) => void } = {}) {}

  /** The revision a compactor wrote to compact_rev_key (ours, from its swap; anyone's, from the watch). */
  observe(compactedTo: number): void {
    if (Number.isFinite(compactedTo) && compactedTo > this.known) this.known = compactedTo;
  }

  /** The revision compacted to as known so far (0: none seen). */
  get revision(): number { return this.known; }

  /** Whether every write of compact_rev_key up to about now has been seen: the watch is established and unbroken. */
  get current(): boolean { return this.watching; }

  /**
   * As EtcdStorage.historyCompacted (whether etcd refuses a read at `revision + 1`: it does
   * below the compacted revision), answered from what is known; undefined when not current.
   */
  historyCompacted(revision: number): boolean | undefined {
    if (!this.watching) return undefined;
    return revision + 1 < this.known;
  }

  start(): this {
    void this.follow();
    return this;
  }

  stop(): void {
    this.stopped = true;
    this.watching = false;
    if (this.timer) clearTimeout(this.timer);
    this.watch?.close();
  }

  /** One round: read the key (its value, and the revision to watch from), then watch it until anything fails; then again. */
  private async follow(): Promise<void> {
    if (this.stopped) return;
    const key = Buffer.from(compactRevKey);
    let watch: RangeWatch | undefined;
    let again = this.opts.retryMs ?? retryMs;
    try {
      const res = await this.client.kv.range({ key });
      const kv = res.kvs[0];
      if (kv) this.observe(compactRevisionIn(kv.value));
      if (this.stopped) return;
      // Any stream failure ends this round: what was written meanwhile is read again, not resumed.
      watch = watchRange(this.client, { key, startRevision: Number(res.header.revision) + 1, onReconnect: () => watch?.close() });
      this.watch = watch;
      const established = watch;
      void watch.created.then(() => { if (this.watch === established && !this.stopped) this.watching = true; });
      for await (const msg of watch) {
        if (msg.type === 'events') {
          for (const ev of msg.events) if (ev.type === 'Put') this.observe(compactRevisionIn(ev.kv.value));
          continue;
        }
        // etcd cancels a watch not yet caught up (one created from a revision it had passed)
        // when it compacts past where the watch stands, and says how far it compacted: a
        // fact, and no failure of etcd's, so the key is read again at once.
        if (msg.type === 'compacted') { this.observe(msg.compactRevision); again = 0; }
        break;
      }
    } catch (err) {
      this.opts.onError?.(err);
    } finally {
      this.watching = false;
      this.watch = undefined;
      watch?.close();
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => { void this.follow(); }, again);
    this.timer.unref();
  }
}
