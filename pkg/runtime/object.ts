// The shapes every stored object shares. Bodies are JSON; fields beyond metadata stay
// untyped here because the scheme's schema, not TypeScript, is their source of truth.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  selfLink?: string;
}

export interface KubeList {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: KubeObject[];
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A deep copy of a JSON-shaped value, as structuredClone makes it but several times
 * faster on the objects every write copies (plain objects, arrays, primitives); anything
 * else inside (a Date, a Buffer) is copied by structuredClone.
 */
export function deepCopy<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return typeof v === 'function' || typeof v === 'symbol' ? structuredClone(v) : v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = deepCopy(v[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = deepCopy((v as Record<string, unknown>)[k]);
  return out as T;
}

/**
 * `{ ...obj, [key]: value }`: the same properties in the same order (`key` in its place if
 * `obj` has it, else last). Node 20's V8 gives every object made by a spread and then given a
 * property the spread did not copy a map of its own, through a runtime call (0.7 us where
 * this takes 0.2): each such object (a written object's metadata with its resourceVersion,
 * every decoded one) then made every property access that saw it megamorphic. Object.assign
 * into a literal shares maps; an own `__proto__` key (JSON.parse makes them) keeps the
 * spread, as assigning it would set the prototype.
 */
export function withProperty<T extends object>(obj: T, key: string, value: unknown): T {
  if (Object.prototype.hasOwnProperty.call(obj, '__proto__')) return { ...obj, [key]: value };
  const out = Object.assign({}, obj) as Record<string, unknown>;
  out[key] = value;
  return out as T;
}
