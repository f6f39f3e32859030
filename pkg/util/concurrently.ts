/**
 * Runs `work` on every item, at most `limit` at once, the rest waiting their turn.
 * Resolves when all are done; rejects with the first failure (items already started
 * still run to their end, none is started after it).
 */
export async function concurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
