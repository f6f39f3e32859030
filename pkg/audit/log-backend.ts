// --audit-log-path: one line per event, json or legacy, to a rotating file or stdout ("-").
import { legacyLine, jsonLine, type AuditEvent } from './event.js';
import type { Backend } from './backend.js';
import type { AuditMetrics } from './metrics.js';
import { RotatingFile, type RotationOptions } from './rotating-file.js';

export type LogFormat = 'json' | 'legacy';

export interface LogBackendOptions extends RotationOptions { path: string; format: LogFormat }

export class LogBackend implements Backend {
  private readonly out: { write(text: string): void; close(): void };
  private readonly format: (ev: AuditEvent) => string;

  constructor(o: LogBackendOptions, private readonly metrics: AuditMetrics) {
    this.out = o.path === '-'
      ? { write: (t) => { process.stdout.write(t); }, close: () => undefined }
      : new RotatingFile(o.path, o);
    this.format = o.format === 'legacy' ? legacyLine : jsonLine;
  }

  async process(events: AuditEvent[]): Promise<void> {
    for (const ev of events) {
      try {
        this.out.write(this.format(ev));
        this.metrics.events.inc();
      } catch (err) {
        this.metrics.errors.inc({ plugin: 'log' });
        throw err;
      }
    }
  }

  async shutdown(): Promise<void> {
    this.out.close();
  }
}
