// The fields a watch cache indexes (upstream's cacher indexers): for each field asked
// about, which keys hold which value, kept as events are applied, so a list that selects
// `spec.nodeName=<node>` reads the node's keys rather than every pod. `metadata.name` is
// read from the key itself, so every resource has it without the registry declaring it.
import type { KubeObject } from '../../runtime/object.js';
import type { IndexedField } from '../interfaces.js';

export type ValueOf = (key: string, obj: KubeObject) => string;

/** The last segment of a key (`<root>/<namespace>/<name>` or `<root>/<name>`) is the name. */
const nameOfKey: ValueOf = (key) => key.slice(key.lastIndexOf('/') + 1);

/**
 * How to read `field` of a stored object: its own function, or the key for the name. A
 * field's function (the registry's selectable fields of a typed copy) is read once per
 * object: the cache's objects are shared and never change, and each is asked again by
 * every watch that resumes from before it (the ring's replay: at 9,000 pod events, 130 ms
 * of CPU per kubelet pod watch resumed, without this), as upstream's cacher computes an
 * event's fields once.
 */
export function valueReader(f: IndexedField): ValueOf | undefined {
  if (f.extract) {
    const of = f.extract;
    const seen = new WeakMap<KubeObject, string>();
    return (_key, obj) => {
      let v = seen.get(obj);
      if (v === undefined) { v = of(obj); seen.set(obj, v); }
      return v;
    };
  }
  return f.field === 'metadata.name' ? nameOfKey : undefined;
}

export class FieldIndexes {
  /** The reader of each field seen so far; the first caller's stands (one registry per resource). */
  private readers = new Map<string, ValueOf>();
  /** Built on the first indexed read of a field: value -> keys. */
  private built = new Map<string, Map<string, Set<string>>>();

  /** The reader of a field, registering the caller's on first sight; undefined when it has none. */
  reader(f: IndexedField): ValueOf | undefined {
    let r = this.readers.get(f.field);
    if (!r) {
      r = valueReader(f);
      if (r) this.readers.set(f.field, r);
    }
    return r;
  }

  /** Every field with a reader and the object's value of it, [field, value, ...]; undefined when there is none. */
  valuesOf(key: string, obj: KubeObject): string[] | undefined {
    if (this.readers.size === 0) return undefined;
    const out: string[] = [];
    for (const [field, read] of this.readers) out.push(field, read(key, obj));
    return out;
  }

  /**
   * The keys whose object has `f.value`, building the field's index from `objects` when
   * it is first asked for; undefined when the field cannot be read.
   */
  keys(f: IndexedField, objects: Map<string, KubeObject>): Set<string> | undefined {
    const read = this.reader(f);
    if (!read) return undefined;
    let index = this.built.get(f.field);
    if (!index) {
      index = new Map();
      for (const [key, obj] of objects) add(index, read(key, obj), key);
      this.built.set(f.field, index);
    }
    return index.get(f.value) ?? new Set();
  }

  /** Moves `key` from its old object's values to its new one's (either may be absent). */
  update(key: string, before: KubeObject | undefined, after: KubeObject | undefined): void {
    for (const [field, index] of this.built) {
      const read = this.readers.get(field)!;
      const old = before ? read(key, before) : undefined;
      const now = after ? read(key, after) : undefined;
      if (old === now) continue;
      if (old !== undefined) {
        const set = index.get(old);
        set?.delete(key);
        if (set?.size === 0) index.delete(old);
      }
      if (now !== undefined) add(index, now, key);
    }
  }

  /** The objects were replaced wholesale (a fresh list): indexes are rebuilt when next read. */
  clear(): void {
    this.built.clear();
  }
}

function add(index: Map<string, Set<string>>, value: string, key: string): void {
  let set = index.get(value);
  if (!set) { set = new Set(); index.set(value, set); }
  set.add(key);
}
