// A watch-fed cache of one resource (upstream's shared informer): list, then watch from
// the list's revision; on a 410 or a broken stream, list again. Readers get the cache,
// never an etcd read; handlers hear every change in order. Each replica runs its own,
// so what one replica writes every other replica's cache sees.
import type { KubeObject } from '../runtime/object.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { WatchEvent } from '../storage/interfaces.js';

export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(obj: KubeObject, old: KubeObject): void;
  delete?(obj: KubeObject): void;
}

const retryDelayMs = 500;

export class Informer {
  private cache = new Map<string, KubeObject>();
  private handlers: InformerHandlers[] = [];
  private stopped = false;
  private stopCurrent: (() => void) | undefined;
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  /** The last revision the cache reflects. */
  resourceVersion = '';

  constructor(private readonly store: GenericStore, private readonly namespace = '') {}

  static keyOf(obj: KubeObject): string {
    return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name ?? '';
  }

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    for (const obj of this.cache.values()) h.add?.(obj);
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  list(namespace?: string): KubeObject[] {
    const all = [...this.cache.values()];
    return namespace ? all.filter((o) => o.metadata.namespace === namespace) : all;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(): Promise<void> {
    return this.synced ? Promise.resolve() : new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.stopCurrent?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.relist();
        await this.watch();
      } catch {
        // The store is unreachable or the watch broke: try again shortly.
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, retryDelayMs));
    }
  }

  private async relist(): Promise<void> {
    const list = await this.store.list(this.namespace, {});
    const fresh = new Map(list.items.map((o) => [Informer.keyOf(o), o] as const));
    for (const [k, old] of this.cache) if (!fresh.has(k)) this.remove(k, old);
    for (const [k, obj] of fresh) {
      const old = this.cache.get(k);
      this.cache.set(k, obj);
      if (!old) this.emit('add', obj);
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.emit('update', obj, old);
    }
    this.resourceVersion = list.metadata.resourceVersion ?? '';
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private async watch(): Promise<void> {
    const stream = await this.store.watch(this.namespace, '', this.resourceVersion, false);
    this.stopCurrent = () => stream.stop();
    if (stream.listen) {
      // The watch cache hands each event over in its fan-out: no promise and no microtask
      // turn per event, where iterating cost both on every write of the resource.
      await new Promise<void>((resolve, reject) => {
        stream.listen!({
          onItem: (ev) => {
            let more: boolean;
            try {
              more = this.apply(ev);
            } catch (err) {
              // In the watch cache's call: the failure ends this watch only (a relist follows).
              stream.stop();
              reject(err);
              return;
            }
            if (!more) {
              stream.stop();
              resolve();
            }
          },
          onEnd: resolve,
        });
      });
      return;
    }
    for await (const ev of stream) {
      if (!this.apply(ev)) break;
    }
  }

  /** Takes one event into the cache and tells the handlers; false when the watch must end. */
  private apply(ev: WatchEvent): boolean {
    if (this.stopped) return false;
    if (ev.type === 'ERROR') return false; // 410 and friends: relist
    this.resourceVersion = ev.object.metadata.resourceVersion ?? this.resourceVersion;
    if (ev.type === 'BOOKMARK') return true;
    const obj = this.store.decorate(ev.object);
    const key = Informer.keyOf(obj);
    if (ev.type === 'DELETED') {
      // As client-go's informer: handlers get the event's object (the final state, at the
      // deletion's resourceVersion), not the cached copy, which can be a version behind.
      this.remove(key, obj);
    } else {
      const old = this.cache.get(key);
      this.cache.set(key, obj);
      if (old) this.emit('update', obj, old);
      else this.emit('add', obj);
    }
    return true;
  }

  /** Drops `key` from the cache and tells the handlers `obj` is gone. */
  private remove(key: string, obj: KubeObject): void {
    this.cache.delete(key);
    this.emit('delete', obj);
  }

  /** Tells every handler; called per event, so without a closure per handler. */
  private emit(kind: 'add' | 'update' | 'delete', obj: KubeObject, old?: KubeObject): void {
    for (const h of this.handlers) {
      try {
        if (kind === 'add') h.add?.(obj);
        else if (kind === 'update') h.update?.(obj, old!);
        else h.delete?.(obj);
      } catch {
        // A handler's bug must not stop the cache for everyone else; handlers log their own failures.
      }
    }
  }
}
