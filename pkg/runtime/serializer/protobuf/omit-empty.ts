// What decoding into upstream's Go types loses before anything else sees the object: an
// empty map or slice in an omitempty field (`"labels": {}`) is never encoded again, and
// a null there leaves a nil pointer, slice or map (or a zero scalar), so the field
// manager, admission, storage and the response all see it absent. Elsewhere a null is a
// no-op on the Go value (encoding/json), which keeps its zero: a scalar without
// omitempty, a struct held by value, a list's item or a map's value is then encoded as
// "", 0, false or the struct's zero ({} or more; a Time's is null), never null. A struct
// held by value that the body leaves out is encoded too, as its zero. Only kinds upstream
// has a Go type (a protobuf message) for; custom resources keep what was sent.
import { type ChangedRegion, regionAt } from '../../changed-region.js';
import { isPlainObject } from '../../object.js';
import { messageFields, messageForKind, type FieldDesc } from './schema.js';
import { decodeBytes } from './decode.js';
import { scalarZero } from './plan.js';
import { special } from './special-types.js';

type Obj = Record<string, unknown>;

/**
 * Removes, in place, the nulls and the empty maps and slices of omitempty fields of `obj` (a `kind` of
 * `apiVersion`), and puts the Go zero value in place of the other nulls decoding zeroes and
 * of absent structs held by value.
 * `region`: where `obj` may differ from a decoded object, which holds none.
 */
export function dropEmptyOmitted(obj: Obj, apiVersion: string, kind: string, region: ChangedRegion = true): void {
  const message = messageForKind(apiVersion, kind);
  if (message) walk(obj, message, region);
}

function walk(obj: Obj, message: string, region: ChangedRegion): void {
  const fields = fieldsByName(message);
  if (fields === undefined) return;
  if (fields !== null) {
    // By the object's keys, not the message's fields: a body holds a few of its kind's
    // fields (a ConfigMap's metadata two of ObjectMeta's seventeen), and each absent one
    // was a property miss. Each key is its own field's, so the order changes nothing.
    for (const key in obj) {
      const f = fields.get(key);
      if (f !== undefined) visit(obj, f, region);
    }
  } else {
    for (const f of messageFields(message)!) {
      if (f.i) {
        if (f.m) walk(obj, f.m, region);
        continue;
      }
      visit(obj, f, region);
    }
  }
  // Decoding leaves a struct held by value at its zero, which upstream encodes: a write's
  // answer shows a container status's `lastState: {}` as GET does.
  for (const f of structsByValue(message)) {
    if (obj[f.j] === undefined && regionAt(region, f.j) !== undefined) obj[f.j] = zeroOf(f);
  }
}

function visit(obj: Obj, f: FieldDesc, region: ChangedRegion): void {
  const r = regionAt(region, f.j);
  if (r === undefined) return;
  const v = obj[f.j];
  if (v === undefined) return;
  if (v === null) {
    // omitempty drops it, but a struct held by value is encoded even when zero; any other
    // value held by value keeps its zero (a struct's zero JSON: {} or more, a Time's null).
    if (f.o && !(f.a && !f.r && f.t === 'msg')) delete obj[f.j];
    else if (f.a && !f.r) obj[f.j] = zeroOf(f);
    return;
  }
  if (f.r && f.t !== 'bytes') zeroNullItems(f, v, r);
  if (f.o && isEmptyCollection(f, v)) {
    delete obj[f.j];
    return;
  }
  if (f.t !== 'msg' || !f.m) return;
  if (f.r === 1 && Array.isArray(v)) {
    for (const item of v) if (isPlainObject(item)) walk(item, f.m, true);
  } else if (f.r === 2 && isPlainObject(v)) {
    for (const key of Object.keys(v)) {
      const item = v[key];
      const ri = regionAt(r, key);
      if (ri !== undefined && isPlainObject(item)) walk(item, f.m, ri);
    }
  } else if (!f.r && isPlainObject(v)) {
    walk(v, f.m, r);
  }
}

const byName = new Map<string, Map<string, FieldDesc> | null | undefined>();

/**
 * A message's fields by JSON name, its inline structs' included; undefined for a message
 * not walked (unknown, or with a JSON form of its own), null when two fields share a
 * name (walked field by field, as each visits the same key).
 */
function fieldsByName(message: string): Map<string, FieldDesc> | null | undefined {
  if (byName.has(message)) return byName.get(message);
  let out: Map<string, FieldDesc> | null | undefined;
  if (messageFields(message) && !special.has(message)) {
    const flat = flatFields(message);
    out = new Map(flat.map((f) => [f.j, f]));
    if (out.size !== flat.length) out = null;
  }
  byName.set(message, out);
  return out;
}

const byValue = new Map<string, FieldDesc[]>();

/**
 * The structs `message` holds by value (its inline structs' included), few or none (a
 * ConfigMap's and ObjectMeta's none). Types with a JSON form of their own are left out:
 * defaulting reads an absent IntOrString (a Service port's targetPort), a Time's zero is null.
 */
function structsByValue(message: string): FieldDesc[] {
  let out = byValue.get(message);
  if (out === undefined) {
    out = flatFields(message).filter((f) => f.a && !f.r && f.t === 'msg' && !special.has(f.m!));
    byValue.set(message, out);
  }
  return out;
}

/** The fields the field walk visits for `message`: its own, and its walked inline structs'. */
function flatFields(message: string): FieldDesc[] {
  const fields = messageFields(message);
  if (!fields || special.has(message)) return [];
  return fields.flatMap((f) => (f.i ? (f.m ? flatFields(f.m) : []) : [f]));
}

const noBytes = new Uint8Array(0);

/** Null items of a list or values of a map, as the element type's zero ([]byte's stays nil). */
function zeroNullItems(f: FieldDesc, v: unknown, region: ChangedRegion): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] === null) v[i] = zeroOf(f);
  } else if (isPlainObject(v)) {
    for (const key in v) if (v[key] === null && regionAt(region, key) !== undefined) v[key] = zeroOf(f);
  }
}

function zeroOf(f: FieldDesc): unknown {
  return f.t === 'msg' ? decodeBytes(noBytes, f.m!) : scalarZero[f.t];
}

/** A map, slice or []byte (a base64 string in JSON) with nothing in it. */
function isEmptyCollection(f: FieldDesc, v: unknown): boolean {
  if (f.r === 1) return Array.isArray(v) && v.length === 0;
  if (f.r === 2) return isPlainObject(v) && Object.keys(v).length === 0;
  return f.t === 'bytes' && v === '';
}
