// Per-APIService refetching shared by what the aggregator copies from extension servers
// (discovery, OpenAPI): on every event of the replica's own APIService informer (so every
// replica follows etcd) and periodically for the service-backed ones, since a server's
// API can change without any APIService event. One fetch per APIService at a time; a
// change during a fetch fetches once more after it.
import type { Informer } from '../client/informer.js';
import type { KubeObject } from '../runtime/object.js';
import { apiServiceSpec } from './apiservice.js';

export class APIServiceRefresher {
  private running = new Map<string, Promise<void>>();
  private again = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly apiServices: Informer,
    private readonly fetch: (name: string) => Promise<void>,
    private readonly periodMs: number,
  ) {}

  start(): void {
    const changed = (o: KubeObject) => this.refresh(o.metadata.name ?? '');
    this.apiServices.addHandlers({ add: changed, update: changed, delete: changed });
    this.timer = setInterval(() => {
      for (const o of this.apiServices.list()) if (apiServiceSpec(o).service) this.refresh(o.metadata.name ?? '');
    }, this.periodMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Resolves once no fetch is running (tests). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  refresh(name: string): void {
    if (this.stopped) return;
    if (this.running.has(name)) { this.again.add(name); return; }
    const run = this.fetch(name).finally(() => {
      this.running.delete(name);
      if (this.again.delete(name)) this.refresh(name);
    });
    this.running.set(name, run);
  }
}
