// A keyed work queue (upstream's rate-limited workqueue, reduced): a key queued while
// pending runs once; keys run one at a time; a failed key is retried with growing delay.
export class WorkQueue {
  private pending = new Set<string>();
  private order: string[] = [];
  private timers = new Set<NodeJS.Timeout>();
  private failures = new Map<string, number>();
  private busy = false;
  private stopped = false;

  constructor(
    private readonly process: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void = () => undefined,
    private readonly maxDelayMs = 5_000,
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
          this.addAfter(key, Math.min(10 * 2 ** n, this.maxDelayMs));
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
