// The client watches of one watch cache, and which of them an event is for: every plain
// watcher under the event's key, the watchers of exactly that key (a watch of one named
// object: a kubelet's `metadata.name=<x>` of each mounted ConfigMap and Secret, which the
// request's name makes a watch of the object's key), and of the watchers that select on
// an indexed field (a kubelet's `spec.nodeName=<node>`) only those whose value the object
// has or had; the last two found by lookup rather than by asking every watcher (upstream's
// triggers), so an event costs nothing for the thousands of watchers it is not for.
// Plain watchers are kept by prefix too: an event's key is compared once per prefix, not
// once per watcher (a thousand watches of one namespace share one prefix).
import type { WatchEvent } from '../interfaces.js';
import type { ValueOf } from './field-index.js';

export interface Watcher {
  /** Exact key, or a prefix ending in '/'. */
  key: string;
  exact: boolean;
  /** Events at or below this revision are not for this watcher. */
  after: number;
  /** Only events of objects with (or that had) this field value are for this watcher. */
  trigger?: { field: string; value: string; read: ValueOf };
  /** Hands an event to the watch's consumer (or keeps it until one listens). */
  push(event: WatchEvent): void;
  /** Events kept for a consumer that has not taken them yet. */
  readonly size: number;
  /** The newest revision a progress BOOKMARK told this watcher. */
  told?: number;
  stop(): void;
}

export function keyMatches(w: Watcher, key: string): boolean {
  return w.exact ? key === w.key : key.startsWith(w.key);
}

export class WatcherSet {
  readonly all = new Set<Watcher>();
  /** Watchers of a prefix without a trigger, by prefix: every event under it is offered to them. */
  private plain = new Map<string, Bucket>();
  /** Watchers of one exact key, by key. */
  private byKey = new Map<string, Bucket>();
  /** Watchers with a trigger, by field and value. */
  private triggered = new Map<string, { read: ValueOf; byValue: Map<string, Bucket> }>();

  /** `maxPending`: a watcher with more undelivered events than this is closed; its client re-watches. */
  constructor(private readonly maxPending: number) {}

  add(w: Watcher): void {
    this.all.add(w);
    if (w.exact) { addTo(this.byKey, w.key, w); return; }
    if (!w.trigger) { addTo(this.plain, w.key, w); return; }
    let field = this.triggered.get(w.trigger.field);
    if (!field) { field = { read: w.trigger.read, byValue: new Map() }; this.triggered.set(w.trigger.field, field); }
    addTo(field.byValue, w.trigger.value, w);
  }

  remove(w: Watcher): void {
    if (!this.all.delete(w)) return;
    if (w.exact) { removeFrom(this.byKey, w.key, w); return; }
    if (!w.trigger) { removeFrom(this.plain, w.key, w); return; }
    const field = this.triggered.get(w.trigger.field);
    if (field) removeFrom(field.byValue, w.trigger.value, w);
  }

  /** Hands an event to every watcher it is for: all plain ones, those of its key and the triggered ones by lookup. */
  fanOut(key: string, rev: number, event: WatchEvent): void {
    const offer = (w: Watcher): void => {
      if (rev <= w.after) return;
      this.deliver(w, event);
      if (event.type === 'ERROR') w.stop();
    };
    // A watcher stopped meanwhile leaves its set; iterating a Set while deleting from it is safe.
    for (const [prefix, bucket] of this.plain) if (key.startsWith(prefix)) each(bucket, offer);
    each(this.byKey.get(key), offer);
    // Found by their value, not their prefix: that is checked here.
    const offerUnder = (w: Watcher): void => { if (keyMatches(w, key)) offer(w); };
    for (const { read, byValue } of this.triggered.values()) {
      if (event.type === 'ERROR') {
        for (const bucket of byValue.values()) each(bucket, offerUnder);
        continue;
      }
      const now = read(key, event.object);
      const before = event.previous ? read(key, event.previous) : now;
      each(byValue.get(now), offerUnder);
      if (before !== now) each(byValue.get(before), offerUnder);
    }
  }

  deliver(w: Watcher, event: WatchEvent): void {
    if (w.size >= this.maxPending) {
      // A watcher this far behind would hold every other one back: end it, as upstream's
      // cacher does; its client re-watches from the last revision it saw.
      w.stop();
      return;
    }
    w.push(event);
  }
}

/**
 * The watchers of one key, prefix or field value: the watcher itself while it is the only
 * one, as a kubelet's watch of one ConfigMap or of its node's pods is (a Set, its table
 * and the map's entry were three objects per watch, kept for the watch's life), a Set
 * once there are more.
 */
type Bucket = Watcher | Set<Watcher>;

/** Calls `fn` for each watcher of `bucket` (one stopped meanwhile leaves the bucket: safe). */
function each(bucket: Bucket | undefined, fn: (w: Watcher) => void): void {
  if (bucket === undefined) return;
  if (bucket instanceof Set) { for (const w of bucket) fn(w); return; }
  fn(bucket);
}

function addTo(index: Map<string, Bucket>, value: string, w: Watcher): void {
  const bucket = index.get(value);
  if (bucket === undefined) index.set(value, w);
  else if (bucket instanceof Set) bucket.add(w);
  else index.set(value, new Set([bucket, w]));
}

function removeFrom(index: Map<string, Bucket>, value: string, w: Watcher): void {
  const bucket = index.get(value);
  if (bucket === w) { index.delete(value); return; }
  if (!(bucket instanceof Set)) return;
  bucket.delete(w);
  if (bucket.size === 0) index.delete(value);
}
