// Polling for a state another replica or a controller reaches eventually.

/**
 * Calls `probe` until it answers something other than undefined (or false) and returns
 * that; fails naming `what` after `timeoutMs`.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs}ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** As until, but a probe that throws is retried too; the last error is named on timeout. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  let last: unknown;
  const tolerant = async (): Promise<T | undefined> => {
    try {
      return await probe();
    } catch (err) {
      last = err;
      return undefined;
    }
  };
  try {
    return await until(what, tolerant, timeoutMs, intervalMs);
  } catch (err) {
    throw last === undefined ? err : new Error(`${(err as Error).message}: ${String(last)}`);
  }
}
