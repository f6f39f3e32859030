// One shared Informer per resource within a replica, so every consumer (authenticators,
// authorizers, admission, controllers) reads the same watch-fed cache.
import type { StoreRegistry } from '../registry/generic/registry.js';
import { Informer } from './informer.js';

export class InformerFactory {
  private informers = new Map<string, Informer>();
  private started = false;

  constructor(private readonly registry: StoreRegistry) {}

  informerFor(group: string, plural: string): Informer {
    const key = `${group}/${plural}`;
    let inf = this.informers.get(key);
    if (!inf) {
      inf = new Informer(this.registry.store(group, plural));
      this.informers.set(key, inf);
      if (this.started) inf.start();
    }
    return inf;
  }

  start(): void {
    this.started = true;
    for (const inf of this.informers.values()) inf.start();
  }

  stop(): void {
    for (const inf of this.informers.values()) inf.stop();
  }

  /** Names of informers still waiting for their first list (readyz informer-sync). */
  notSynced(): string[] {
    return [...this.informers.entries()].filter(([, i]) => !i.hasSynced()).map(([k]) => k);
  }

  async waitForSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }
}
