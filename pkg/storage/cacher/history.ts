// A watch cache's recent events (the ring, sized by time: event-ring.ts), each object
// version decoded only while it is its key's current one. When an event supersedes a
// version, that version is frozen (cold-version.ts) in the entry that made it and becomes
// the new entry's `before`; a deletion keeps only the frozen last version. So the history
// holds each version once, decoded only where the cache's objects hold it anyway, and a
// replay or an older page decodes the versions it actually reads.
import type { KubeObject } from '../../runtime/object.js';
import type { WatchEvent } from '../interfaces.js';
import { ColdVersion, freeze, thaw, type Version } from './cold-version.js';
import { EventRing, type RingSizing } from './event-ring.js';
import { keyMatches, type Watcher } from './watchers.js';

type EntryType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface HistoryEntry {
  readonly key: string;
  readonly rev: number;
  readonly type: EntryType;
  /** The version the event made (decoded while current); undefined for a deletion that reports `before`. */
  object?: Version;
  /** The key's version before the event (undefined: absent), for reads at an earlier revision. */
  readonly before?: Version;
  /** The event's previous object where it is not the one implied (MODIFIED: before; DELETED: the object). */
  readonly previous?: Version;
  /** While `object` is decoded: the value etcd sent for it, if known, one byte a character (its frozen form). */
  stored?: string;
}

/** The indexed fields' values of a version, [field, value, ...], for watches that select on them. */
export type FieldValues = (key: string, obj: KubeObject) => string[] | undefined;

export class History {
  private readonly ring: EventRing<HistoryEntry>;
  /** Each key's newest entry while the ring holds it: its object is the key's current version. */
  private readonly newest = new Map<string, HistoryEntry>();

  constructor(sizing: Partial<RingSizing> | undefined, private readonly fieldValues: FieldValues) {
    this.ring = new EventRing(sizing, (e) => { if (this.newest.get(e.key) === e) this.newest.delete(e.key); });
  }

  get oldest(): HistoryEntry | undefined { return this.ring.oldest; }
  get lastDropped(): number | undefined { return this.ring.lastDropped; }

  /**
   * Records an event the cache applied; `before`: the key's object until then (undefined:
   * none); `stored`: the value etcd sent that the event's object was decoded from, as is.
   */
  record(key: string, rev: number, event: WatchEvent, before: KubeObject | undefined, stored?: Buffer): void {
    if (event.type === 'ERROR' || event.type === 'BOOKMARK') return;
    let frozenBefore: ColdVersion | undefined;
    if (before) {
      // The entry that made `before` freezes it in place (from etcd's bytes where it has them), shared with this one.
      const last = this.newest.get(key);
      const made = last?.object === before ? last : undefined;
      frozenBefore = made?.stored !== undefined
        ? new ColdVersion(made.stored, String(made.rev), this.fieldValues(key, before))
        : this.freeze(key, before);
      if (made) { made.object = frozenBefore; made.stored = undefined; }
    }
    // Where the event's objects are the ones implied (the norm: the cache held the key), nothing more is kept.
    const deletedFromCache = event.type === 'DELETED' && before !== undefined;
    const implied = event.type === 'DELETED' ? deletedFromCache || event.previous === event.object
      : event.type === 'MODIFIED' ? event.previous === before : event.previous === undefined;
    const entry: HistoryEntry = {
      key, rev, type: event.type,
      object: deletedFromCache ? undefined : event.type === 'DELETED' ? this.freeze(key, event.object) : event.object,
      before: frozenBefore,
      previous: implied || !event.previous ? undefined : this.freeze(key, event.previous),
      stored: stored && event.type !== 'DELETED' ? stored.toString('latin1') : undefined,
    };
    this.ring.push(entry);
    if (event.type === 'DELETED') this.newest.delete(key); else this.newest.set(key, entry);
  }

  /** The entries after revision `rev`, oldest first. */
  after(rev: number): Generator<HistoryEntry> {
    return this.ring.after(rev);
  }

  clear(): void {
    this.ring.clear();
    this.newest.clear();
  }

  /** The entry as the watch event it was, decoding what is cold (the previous object only when asked for). */
  eventOf(e: HistoryEntry): WatchEvent {
    if (e.type === 'DELETED') {
      const object = e.object ? thaw(e.object) : thaw(e.before!, String(e.rev));
      return { type: 'DELETED', object, previous: e.previous ? thaw(e.previous) : object };
    }
    const object = thaw(e.object!);
    const prior = previousOf(e);
    if (prior === undefined) return { type: e.type, object };
    let previous: KubeObject | undefined;
    return { type: e.type, object, get previous() { return (previous ??= thaw(prior)); } };
  }

  /** Whether the entry's event is for watcher `w`, as watchers.ts's concerns(), reading frozen versions' field values. */
  concerns(w: Watcher, e: HistoryEntry): boolean {
    if (!keyMatches(w, e.key)) return false;
    const t = w.trigger;
    if (!t) return true;
    const value = (v: Version): string => (v instanceof ColdVersion ? v.field(t.field) ?? t.read(e.key, thaw(v)) : t.read(e.key, v));
    // A deletion that keeps no object of its own reports `before` (at its revision: same fields).
    const prior = previousOf(e);
    return value(e.object ?? e.before!) === t.value || (prior !== undefined && value(prior) === t.value);
  }

  private freeze(key: string, obj: KubeObject): ColdVersion {
    return freeze(obj, this.fieldValues(key, obj));
  }
}

/** The entry's event's previous version: its own, or the one implied (MODIFIED: before; DELETED: the object; ADDED: none). */
function previousOf(e: HistoryEntry): Version | undefined {
  if (e.previous) return e.previous;
  if (e.type === 'MODIFIED') return e.before;
  return e.type === 'DELETED' ? e.object ?? e.before : undefined;
}
