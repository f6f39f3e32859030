// The managed fields of a create, remembered by the object's shape. A create compares the
// new object with its kind's zero value, whose leaves are nulls and empty structs: a
// scalar the object sets outside a list is a change whatever its value, so the entry
// depends only on the object's keys, which leaves are null, scalars' types, and lists
// as written (their items' keys and values name paths). Clients create objects of a few
// shapes again and again (names and data values differ); for those the comparison, its
// field-set tries and their FieldsV1 document are made once. Only the entry's time is new.
import type { KubeObject, ManagedFieldsEntry } from '../../../runtime/object.js';

interface Remembered { entries: ManagedFieldsEntry[]; documents: string[] }

/** Shapes remembered per kind (per memo). */
const kept = 64;
/** After this many misses in a row a kind's writes are not shaped for a while (pods: lists differ per object). */
const missesBeforeRest = 64;
const restCreates = 4096;

/** A value that ends the shape: not what a decoded object holds. */
export class Unshaped extends Error {}

const plain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * `v` with every scalar outside a list as its type (`exact`: as itself, inside lists),
 * undefined apart from absent, keys with their length: no key or value passes for another.
 */
export function shapeOf(v: unknown, exact: boolean): string {
  switch (typeof v) {
    case 'string': return exact ? JSON.stringify(v) : 's';
    case 'number': return exact ? `n${v}` : 'n';
    case 'boolean': return exact ? `${v}` : 'b';
    case 'undefined': return 'u';
    case 'object': {
      if (v === null) return 'z';
      if (!plain(v) && !Array.isArray(v)) throw new Unshaped();
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += `${shapeOf(v[i], true)},`;
        return `${out}]`;
      }
      const o = v as Record<string, unknown>;
      let out = '{';
      for (const k of Object.keys(o)) out += `${k.length}:${k}${shapeOf(o[k], exact)}`;
      return `${out}}`;
    }
    default: throw new Unshaped();
  }
}

/**
 * Values remembered by shape, at most `kept`; after `missesBeforeRest` misses in a row the
 * next `restCalls` calls are not shaped (a kind whose objects rarely repeat a shape).
 */
export class ShapeMemo<V> {
  private readonly values = new Map<string, V>();
  private misses = 0;
  private resting = 0;

  constructor(private readonly restCalls: number) {}

  /** Whether this call is one to skip (resting after many misses). */
  protected skipping(): boolean {
    if (this.resting === 0) return false;
    this.resting--;
    return true;
  }

  /** The value remembered under `key`, a miss counted when there is none. */
  protected found(key: string): V | undefined {
    const r = this.values.get(key);
    if (r === undefined) {
      if (++this.misses >= missesBeforeRest) {
        this.misses = 0;
        this.resting = this.restCalls;
      }
      return undefined;
    }
    this.misses = 0;
    return r;
  }

  protected keep(key: string, value: V): void {
    if (this.values.size >= kept) this.values.clear();
    this.values.set(key, value);
  }
}

export class CreateMemo extends ShapeMemo<Remembered> {
  constructor() { super(restCreates); }

  /** The key of a create of `obj` by `manager`, or undefined when this one is not remembered. */
  keyOf(obj: KubeObject, manager: string): string | undefined {
    if (this.skipping()) return undefined;
    try {
      return `${manager.length}:${manager}${shapeOf(obj, false)}`;
    } catch (err) {
      if (err instanceof Unshaped) return undefined;
      throw err;
    }
  }

  /** `obj` with the remembered entries (their time now), or undefined. */
  recall(key: string, obj: KubeObject, now: () => string): KubeObject | undefined {
    const r = this.found(key);
    if (r === undefined) return undefined;
    const { managedFields: _sent, ...rest } = obj.metadata;
    const metadata: KubeObject['metadata'] = rest;
    const next: KubeObject = { ...obj, metadata };
    if (r.entries.length === 0) return next;
    const time = now();
    // Spread then overwritten: each member keeps its place in the entry.
    metadata.managedFields = r.entries.map((e, i) => ({
      ...e, ...(e.time === undefined ? {} : { time }), fieldsV1: JSON.parse(r.documents[i]!) as Record<string, unknown>,
    }));
    return next;
  }

  remember(key: string, computed: KubeObject): void {
    const entries = computed.metadata.managedFields ?? [];
    this.keep(key, { entries: entries.map((e) => ({ ...e })), documents: entries.map((e) => JSON.stringify(e.fieldsV1 ?? {})) });
  }
}

/** Whether a zero value has only null and empty-struct leaves (else a scalar's value could matter). */
export function zeroHasNoScalars(v: unknown): boolean {
  if (v === null) return true;
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.length === 0;
  for (const x of Object.values(v as Record<string, unknown>)) if (!zeroHasNoScalars(x)) return false;
  return true;
}
