// Periodic compaction of etcd history, shared by every replica through one key, as
// upstream's apiserver does: the key's version is a logical clock. Each tick a replica
// compare-and-swaps the key from the version it last saw; only the winner compacts, and
// it compacts to the revision it saw at its previous win, so history of the last
// interval (watch resumption, continue tokens) always survives. A replica that loses
// adopts the winner's clock and tries again next tick, taking over if the winner dies.
import type { Etcd3 } from 'etcd3';
import { StorageError } from '../interfaces.js';
import { guardEtcd } from './boundary.js';

/** The same key upstream uses, outside any --etcd-prefix, so mixed fleets coordinate. */
export const compactRevKey = 'compact_rev_key';

export interface CompactorLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What one replica remembers between ticks. */
export interface CompactorState {
  /** Version of the key when this replica last looked (0: never written). */
  time: number;
  /** etcd revision at this replica's last successful swap: the next compaction target. */
  revision: number;
}

export interface TickResult {
  state: CompactorState;
  /** The revision compacted in this tick, if this replica compacted. */
  compacted?: number;
  /** What the key says is compacted (ours when we won, another replica's when we lost; 0 when nothing yet). */
  compactRevision: number;
}

/** Told the revision compact_rev_key says is compacted, as each tick learns it (CompactRevisionTracker). */
export interface CompactRevisionObserver {
  observe(compactedTo: number): void;
}

/** The revision a compact_rev_key value names (decimal text, as upstream writes it); 0 when it names none. */
export function compactRevisionIn(value: Buffer): number {
  const revision = Number(value.toString());
  return Number.isFinite(revision) && revision > 0 ? revision : 0;
}

/** One tick: the compare-and-swap, and the compaction when we won. */
export async function compactTick(etcd: Etcd3, state: CompactorState): Promise<TickResult> {
  const client = guardEtcd(etcd);
  const key = Buffer.from(compactRevKey);
  const res = await client.kv.txn({
    compare: [{ key, target: 'Version', result: 'Equal', version: state.time }],
    success: [{ request_put: { key, value: Buffer.from(String(state.revision)) } }],
    failure: [{ request_range: { key } }],
  });
  const headerRev = Number(res.header.revision);
  if (!res.succeeded) {
    const kv = res.responses[0]?.response_range?.kvs?.[0];
    return { state: { time: kv ? Number(kv.version) : 0, revision: headerRev }, compactRevision: kv ? compactRevisionIn(kv.value) : 0 };
  }
  const next: CompactorState = { time: state.time + 1, revision: headerRev };
  // The first win only records where history starts; nothing is old enough yet.
  if (state.revision === 0) return { state: next, compactRevision: 0 };
  try {
    await client.kv.compact({ revision: String(state.revision), physical: false });
  } catch (err) {
    // Already compacted further (another tool did it): nothing lost, keep the clock.
    if (!(err instanceof StorageError && err.code === 'ResourceVersionGone')) throw err;
  }
  return { state: next, compacted: state.revision, compactRevision: state.revision };
}

/**
 * Compacts every `intervalMs` (0 or less: never), telling `seen` what each tick learns of
 * the compacted revision. Returns a handle whose stop() ends the loop; an in-flight tick
 * finishes on its own.
 */
export function startCompactor(client: Etcd3, intervalMs: number, log: CompactorLog, seen?: CompactRevisionObserver): { stop(): void } {
  if (!(intervalMs > 0)) return { stop() { /* disabled */ } };
  let state: CompactorState = { time: 0, revision: 0 };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      compactTick(client, state).then((r) => {
        state = r.state;
        seen?.observe(r.compactRevision);
        if (r.compacted !== undefined) log.info({ revision: r.compacted }, 'etcd: compacted history');
      }, (err: Error) => {
        log.error({ err: err.message }, 'etcd: compaction failed');
      }).finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
