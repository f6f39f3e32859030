// Batch mode: requests never wait for the backend. Events queue up to bufferSize (beyond
// that they are dropped and counted, as upstream drops them), and leave in batches of at
// most maxBatchSize, at least every maxBatchWait, throttled to qps/burst batches.
import type { Backend } from './backend.js';
import type { AuditEvent } from './event.js';
import type { AuditMetrics } from './metrics.js';

export interface BatchOptions {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
}

export class BufferedBackend implements Backend {
  private queue: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  private tokens: number;
  private lastRefill = Date.now();

  constructor(private readonly delegate: Backend, private readonly o: BatchOptions,
    private readonly metrics: AuditMetrics, private readonly onError: (err: unknown) => void) {
    this.tokens = o.throttleBurst;
  }

  async process(events: AuditEvent[]): Promise<void> {
    for (const ev of events) {
      if (this.queue.length >= this.o.bufferSize) {
        this.metrics.errors.inc({ plugin: 'buffered' });
        continue;
      }
      this.queue.push(ev);
    }
    if (this.queue.length >= this.o.maxBatchSize) this.flushSoon(0);
    else this.flushSoon(this.o.maxBatchWaitMs);
  }

  async shutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) await this.sendBatch(false);
    await this.sending;
    await this.delegate.shutdown();
  }

  private flushSoon(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sendBatch(true).then(() => { if (this.queue.length > 0) this.flushSoon(this.queue.length >= this.o.maxBatchSize ? 0 : this.o.maxBatchWaitMs); });
    }, delayMs);
    this.timer.unref();
  }

  private async sendBatch(throttled: boolean): Promise<void> {
    if (throttled && this.o.throttleEnable) await this.takeToken();
    const batch = this.queue.splice(0, this.o.maxBatchSize);
    if (batch.length === 0) return;
    const prev = this.sending;
    this.sending = prev.then(() => this.delegate.process(batch)).catch((err) => this.onError(err));
    await this.sending;
  }

  private async takeToken(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.o.throttleBurst, this.tokens + ((now - this.lastRefill) / 1000) * this.o.throttleQPS);
      this.lastRefill = now;
      if (this.tokens >= 1) { this.tokens -= 1; return; }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / this.o.throttleQPS) * 1000)));
    }
  }
}
