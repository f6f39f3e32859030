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
