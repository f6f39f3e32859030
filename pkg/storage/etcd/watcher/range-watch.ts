// Our own client for one etcd watch (a key or a key range) on etcd's gRPC Watch stream.
// The etcd3 package's Watcher reports compaction only as a generic cancellation and can
// lose events across reconnects; this module owns the resume point instead:
// - every message carries the revision up to which the range has been delivered, and
//   after any stream failure the watch is re-created from the revision after it, so no
//   event is skipped or repeated (events below the resume point are dropped);
// - a compacted resume point ends the watch with one `compacted` message;
// - periodic progress notifications (progress_notify) advance the delivered revision
//   without events, which is what makes bookmarks safe.
import type { Etcd3, IEvent, IWatchRequest, IWatchResponse } from 'etcd3';
import { AsyncQueue } from '../../../util/async-queue.js';

export interface RangeWatchOptions {
  key: Buffer;
  /** Exclusive end of the range; omit to watch the single key. */
  rangeEnd?: Buffer;
  /** First revision to deliver (etcd start_revision); must be > 0. */
  startRevision: number;
  prevKv?: boolean;
  progressNotify?: boolean;
  /** Reconnect backoff bounds; defaults 100 ms and 2 s. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Called for every stream failure that leads to a reconnect (logs, tests). */
  onReconnect?: (err: Error, resumeRevision: number) => void;
}

export type RangeWatchMessage =
  /** One etcd response's events (one or more whole revisions), in revision order. */
  | { type: 'events'; events: IEvent[]; revision: number }
  /** Every change up to `revision` has been delivered. */
  | { type: 'progress'; revision: number }
  /** `lastRevision` (the last delivered) can no longer be resumed from. */
  | { type: 'compacted'; compactRevision: number; lastRevision: number }
  /** etcd refused the watch for another reason, repeatedly. */
  | { type: 'failed'; error: Error };

export interface RangeWatch extends AsyncIterable<RangeWatchMessage> {
  /** Every change up to this revision has been delivered (startRevision - 1 at first). */
  readonly deliveredRevision: number;
  /** Resolves once etcd has accepted the first create request. */
  readonly created: Promise<void>;
  close(): void;
}

/** Non-compaction cancellations in a row before the watch gives up. */
const maxRefusals = 10;

export function watchRange(client: Etcd3, opts: RangeWatchOptions): RangeWatch {
  if (!(opts.startRevision > 0)) throw new Error(`watchRange: startRevision must be > 0, got ${opts.startRevision}`);
  const queue = new AsyncQueue<RangeWatchMessage>();
  const minBackoff = opts.minBackoffMs ?? 100;
  const maxBackoff = opts.maxBackoffMs ?? 2000;
  let next = opts.startRevision;
  let closed = false;
  let current: { cancel(): void } | undefined;
  let wake: (() => void) | undefined;
  let createdResolve!: () => void;
  const created = new Promise<void>((r) => { createdResolve = r; });

  const finish = (last?: RangeWatchMessage) => {
    if (closed) return;
    if (last) queue.push(last);
    closed = true;
    queue.close();
    current?.cancel();
    wake?.();
  };

  /** Runs one gRPC stream until it fails or the watch ends; resolves with the failure. */
  const runStream = (): Promise<{ err: Error; wasCreated: boolean; refused: boolean }> => new Promise((resolve) => {
    let settled = false;
    let wasCreated = false;
    let fragments: IEvent[] = [];
    const settle = (err: Error, refused = false) => {
      if (settled) return;
      settled = true;
      resolve({ err, wasCreated, refused });
    };
    client.watchClient.watch({ deadline: Infinity }).then((stream) => {
      if (closed) { safeCancel(stream); settle(new Error('closed')); return; }
      current = { cancel: () => { safeEnd(stream); safeCancel(stream); } };
      stream.on('data', (res: IWatchResponse) => {
        if (closed || settled) return;
        if (res.canceled) {
          const compactRev = Number(res.compact_revision);
          if (compactRev > 0) {
            finish({ type: 'compacted', compactRevision: compactRev, lastRevision: next - 1 });
            settle(new Error('compacted'));
            return;
          }
          safeCancel(stream);
          settle(new Error(`watch canceled by etcd: ${res.cancel_reason || 'no reason given'}`), true);
          return;
        }
        if (res.created) {
          wasCreated = true;
          createdResolve();
          return;
        }
        if (res.fragment) { fragments.push(...res.events); return; }
        const events = fragments.length > 0 ? [...fragments, ...res.events] : res.events;
        fragments = [];
        if (events.length === 0) {
          const rev = Number(res.header.revision);
          if (rev >= next) next = rev + 1;
          queue.push({ type: 'progress', revision: next - 1 });
          return;
        }
        // Defensive: a resumed stream must never hand out a revision twice.
        const fresh = events.filter((ev) => Number(ev.kv.mod_revision) >= next);
        if (fresh.length === 0) return;
        next = Number(fresh[fresh.length - 1].kv.mod_revision) + 1;
        queue.push({ type: 'events', events: fresh, revision: next - 1 });
      });
      stream.on('error', (err: Error) => settle(err));
      stream.on('end', () => settle(new Error('watch stream ended')));
      const create: IWatchRequest = {
        create_request: {
          key: opts.key,
          range_end: opts.rangeEnd,
          start_revision: String(next),
          prev_kv: opts.prevKv ?? false,
          progress_notify: opts.progressNotify ?? false,
          fragment: true,
        },
      };
      stream.write(create);
    }, (err: Error) => settle(err));
  });

  void (async () => {
    let backoff = minBackoff;
    let refusals = 0;
    while (!closed) {
      const { err, wasCreated, refused } = await runStream();
      current = undefined;
      if (closed) break;
      if (wasCreated) backoff = minBackoff;
      refusals = refused ? refusals + 1 : 0;
      if (refusals >= maxRefusals) { finish({ type: 'failed', error: err }); break; }
      opts.onReconnect?.(err, next);
      await new Promise<void>((r) => {
        const t = setTimeout(r, backoff);
        wake = () => { clearTimeout(t); r(); };
      });
      wake = undefined;
      backoff = Math.min(backoff * 2, maxBackoff);
    }
  })();

  return {
    get deliveredRevision() { return next - 1; },
    created,
    close: () => finish(),
    [Symbol.asyncIterator]: () => ({
      next: () => queue.next(),
      return: async () => { finish(); return { value: undefined, done: true }; },
    }),
  };
}

function safeCancel(stream: { cancel(): void }): void {
  try { stream.cancel(); } catch { /* already closed */ }
}

function safeEnd(stream: { end(): void }): void {
  try { stream.end(); } catch { /* already closed */ }
}
