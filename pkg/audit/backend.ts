// Where audit events go. A backend either takes events synchronously (blocking modes:
// the request waits until they are written or sent) or buffers them (batch mode).
import type { AuditEvent } from './event.js';

export interface Backend {
  /** Blocking backends finish the write before resolving; a failure rejects. */
  process(events: AuditEvent[]): Promise<void>;
  /** Flushes what is buffered; nothing accepted before shutdown is lost. */
  shutdown(): Promise<void>;
}

/** Sends every event to each backend (log and webhook together). */
export class UnionBackend implements Backend {
  constructor(private readonly backends: Backend[]) {}

  async process(events: AuditEvent[]): Promise<void> {
    await Promise.all(this.backends.map((b) => b.process(events)));
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.backends.map((b) => b.shutdown()));
  }
}
