// One shared Informer per resource within a replica, so every consumer (authenticators,
// authorizers, admission, controllers) reads the same watch-fed cache.
// readyz's informer-sync counts the apiserver's own informers, as upstream's counts its
// generic apiserver's shared informer factory: those the in-process controllers add
// (kube-controller-manager's, upstream) are asked for through controllerView(), start
// with the controllers and never count; one the apiserver asks for too counts.
import type { StoreRegistry } from '../registry/generic/registry.js';
import { Informer } from './informer.js';

/** Informers for the in-process controllers: made when asked for, listing once start() is called. */
export interface ControllerInformers {
  informerFor(group: string, plural: string): Informer;
  start(): void;
}

export class InformerFactory {
  private informers = new Map<string, Informer>();
  private readonly counted = new Set<string>();
  private readonly running = new Set<string>();
  private started = false;
  private controllersStarted = false;

  constructor(private readonly registry: StoreRegistry) {}

  informerFor(group: string, plural: string): Informer {
    const key = `${group}/${plural}`;
    this.counted.add(key);
    const inf = this.get(key, group, plural);
    if (this.started) this.run(key, inf);
    return inf;
  }

  /** The controllers' view: their informers list and watch only once the view is started. */
  controllerView(): ControllerInformers {
    return {
      informerFor: (group, plural) => {
        const key = `${group}/${plural}`;
        const inf = this.get(key, group, plural);
        if (this.controllersStarted) this.run(key, inf);
        return inf;
      },
      start: () => {
        this.controllersStarted = true;
        for (const [key, inf] of this.informers) this.run(key, inf);
      },
    };
  }

  private get(key: string, group: string, plural: string): Informer {
    let inf = this.informers.get(key);
    if (!inf) {
      inf = new Informer(this.registry.store(group, plural));
      this.informers.set(key, inf);
    }
    return inf;
  }

  private run(key: string, inf: Informer): void {
    if (this.running.has(key)) return;
    this.running.add(key);
    inf.start();
  }

  start(): void {
    this.started = true;
    for (const key of this.counted) this.run(key, this.informers.get(key)!);
  }

  stop(): void {
    for (const inf of this.informers.values()) inf.stop();
  }

  /** Names of the apiserver's informers still waiting for their first list (readyz informer-sync). */
  notSynced(): string[] {
    return [...this.counted].filter((k) => !this.informers.get(k)!.hasSynced());
  }
}
