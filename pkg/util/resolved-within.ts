// Waiting for something with a deadline, without leaving the deadline's timer behind: a
// timer left to expire holds its closure and promise for the whole timeout, and one per
// request (admission waiting for an informer that synced long ago) kept thousands alive
// under load, each a little more for the garbage collector to carry into the old space.

/** True once `ready` resolves, false if that takes longer than `timeoutMs`; the timer is cleared either way. */
export async function resolvedWithin(ready: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([ready.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** What an informer offers to wait on: whether its first list is in, and a promise of it. */
export interface Syncable {
  hasSynced(): boolean;
  waitForSync(): Promise<unknown>;
}

/**
 * True once every informer has its first list, false if that takes longer than
 * `timeoutMs`. Synced once is synced for good, so the requests after that need no timer.
 */
export function syncedWithin(informers: Syncable | Syncable[], timeoutMs: number): Promise<boolean> {
  const all = Array.isArray(informers) ? informers : [informers];
  if (all.every((i) => i.hasSynced())) return Promise.resolve(true);
  return resolvedWithin(Promise.all(all.map((i) => i.waitForSync())), timeoutMs);
}
