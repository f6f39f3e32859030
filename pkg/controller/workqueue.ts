// A keyed work queue (upstream's rate-limited workqueue, reduced): a key queued while
// pending is queued once; keys are processed one at a time; a failure is retried with
// growing delay. Controllers queue keys from informer events and reconcile each key.

export interface RetryPolicy {
  /** Retries of one key before it is dropped (until it is queued again); default 10. */
  maxRetries?: number;
  /** First retry delay, doubled per failure; default 5 ms. */
  baseDelayMs?: number;
  /** Upper bound of the retry delay; default 5 s. */
  maxDelayMs?: number;
}

export class KeyedQueue {
  private pending = new Set<string>();
  private order: string[] = [];
  private timers = new Set<NodeJS.Timeout>();
  private failures = new Map<string, number>();
  private busy = false;
  private stopped = false;

  constructor(
    private readonly process: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void = () => undefined,
    private readonly retry: RetryPolicy = {},
  ) {}

  add(key: string): void {
    if (this.stopped || this.pending.has(key)) return;
    this.pending.add(key);
    this.order.push(key);
    void this.drain();
  }

  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => { this.timers.delete(t); this.add(key); }, Math.max(0, Math.min(delayMs, 2 ** 31 - 1)));
    t.unref();
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
    this.order = [];
  }

  /** Resolves when nothing is queued or running (tests). */
  async idle(): Promise<void> {
    while (this.busy || this.order.length > 0) await new Promise((r) => setTimeout(r, 10));
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.stopped && this.order.length > 0) {
        const key = this.order.shift()!;
        this.pending.delete(key);
        try {
          await this.process(key);
          this.failures.delete(key);
        } catch (err) {
          this.onError(key, err);
          const n = (this.failures.get(key) ?? 0) + 1;
          this.failures.set(key, n);
          const { maxRetries = 10, baseDelayMs = 5, maxDelayMs = 5_000 } = this.retry;
          if (n <= maxRetries) this.addAfter(key, Math.min(baseDelayMs * 2 ** n, maxDelayMs));
        }
      }
    } finally {
      this.busy = false;
    }
  }
}

/** namespace/name of an object, or its name when cluster-scoped. */
export function keyOf(meta: { namespace?: string; name?: string }): string {
  return meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : meta.name ?? '';
}

export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
