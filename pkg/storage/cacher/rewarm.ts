// Frozen object versions (cold-version.ts) that a read decoded again, kept decoded for a
// while beside their frozen form, then frozen again: a client listing every few seconds
// (a test harness, a dashboard) would otherwise decode every object on every read. And the
// link from a decoded object the watch cache froze to its frozen form, so that another
// holder of the same object (an in-process informer's cache) can drop it too.
import type { KubeObject } from '../../runtime/object.js';
import { ColdVersion } from './cold-version.js';

const frozenTwins = new WeakMap<object, ColdVersion>();

/** The watch cache froze `obj` as `cold`: whoever else holds `obj` may hold `cold` instead. */
export function frozeAs(obj: object, cold: ColdVersion): void {
  frozenTwins.set(obj, cold);
}

/** The frozen form the watch cache keeps of `obj`, if it froze it. */
export function frozenTwinOf(obj: object): ColdVersion | undefined {
  return frozenTwins.get(obj);
}

interface Warm { obj: KubeObject; cold: ColdVersion; at: number }

/** The decoded-again objects of one map of versions (a watch cache's, an informer's). */
export class Rewarming {
  private warmed = new Map<string, Warm>();
  private timer?: ReturnType<typeof setInterval>;

  /** `objects`: the map whose frozen versions are warmed; `decode`: a frozen version as the map's holder reads it. */
  constructor(private readonly objects: Map<string, KubeObject | ColdVersion>, private readonly forMs: number,
    private readonly decode: (cold: ColdVersion) => KubeObject) {}

  /** The object of `key`, `v` as the map holds it: decoded again if frozen, and kept so about `forMs`. */
  warm(key: string, v: KubeObject | ColdVersion): KubeObject {
    if (!(v instanceof ColdVersion)) return v;
    const obj = this.decode(v);
    this.objects.set(key, obj);
    this.warmed.set(key, { obj, cold: v, at: Date.now() });
    this.timer ??= setInterval(() => this.sweep(), this.forMs / 2).unref();
    return obj;
  }

  /**
   * The key's version as it was last settled, for a change about to replace it: the frozen
   * form where a read only decoded it again. The key is no longer warmed.
   */
  settled(key: string): KubeObject | ColdVersion | undefined {
    const v = this.objects.get(key);
    const w = this.warmed.get(key);
    if (!w) return v;
    this.warmed.delete(key);
    return w.obj === v ? w.cold : v;
  }

  /** Freezes again what was decoded `forMs` or more ago and not replaced since. */
  sweep(now = Date.now()): void {
    for (const [key, w] of this.warmed) {
      if (now - w.at < this.forMs) continue;
      if (this.objects.get(key) === w.obj) this.objects.set(key, w.cold);
      // Whoever else was handed it (an informer's list from the cache) may drop it too.
      frozeAs(w.obj, w.cold);
      this.warmed.delete(key);
    }
    if (this.warmed.size === 0) this.stop();
  }

  clear(): void {
    this.warmed.clear();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
