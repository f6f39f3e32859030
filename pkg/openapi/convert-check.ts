// Type checks of a strategic merge patch's result, reported the way upstream's patcher
// fails: it does not decode JSON but converts the patched map into the kind's Go struct
// (runtime.DefaultUnstructuredConverter), which stops at the first value it cannot
// convert and words its errors its own way ("cannot convert int64 to string",
// "unrecognized type: int32", "cannot restore struct from: slice"). Types with their own
// JSON decoding (Time, Quantity, IntOrString) are handed the value re-encoded as JSON.
// An integer it can convert but that does not fit an int32 field is not an error there:
// Go's conversion keeps its low 32 bits, and the object goes on with that value. Nor is
// a number past int64 for an int64 field: the patch decoder made it a float64 (it keeps
// an int64 only where ParseInt takes the literal), and amd64's conversion of a float64
// beyond int64 gives int64's min, which the object goes on with.
import { classify } from './go-types.js';
import { jsonKind, numberAsWritten } from './type-check.js';
import { base64Error, quantityError, timeError } from '../runtime/literal-decoders.js';
import { type ChangedRegion, regionAt } from '../runtime/changed-region.js';
import { definitionNameForGVK, refNode } from './schema.js';
import type { SchemaNode } from './types.js';

class Unconvertible {
  constructor(readonly message: string) {}
}

/** The Go kind a decoded patch value has (integers decode as int64, other numbers as float64). */
function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

const fail = (message: string): never => {
  throw new Unconvertible(message);
};

/** What an integer the converter takes becomes in an int32 field, as reflect's Convert on amd64. */
function int32Of(v: number): number {
  // Past int64 the value is a float64, whose conversion to int64 gives 0x8000000000000000 (low bits 0).
  if (v >= 2 ** 63 || v <= -(2 ** 63)) return 0;
  return v | 0;
}

const int64Min = -(2 ** 63);

/**
 * Whether `v`, an integral number for an int64 field, is a float64 beyond int64 in Go.
 * 2^63 itself is also what an int64 literal near the top (its max) reads as here, so it
 * is one only where the patch wrote a float64 that rounds to it (`twoTo63IsFloat`).
 */
function beyondInt64(v: number, twoTo63IsFloat: boolean): boolean {
  return v > 2 ** 63 || v < int64Min || (v === 2 ** 63 && twoTo63IsFloat);
}

/**
 * Checks `v` as `node`'s Go type; returns what it converts to (an int32 wraps, see
 * int32Of; an int64 past its range is int64's min, see beyondInt64).
 */
function convert(node: SchemaNode, v: unknown, region: ChangedRegion, twoTo63IsFloat: boolean): unknown {
  if (v === null || v === undefined) return v;
  const c = classify(node);
  const kind = goKind(v);
  switch (c.k) {
    case 'any':
      return v;
    case 'intOrString':
      if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) return v;
      return fail(`json: cannot unmarshal ${numberAsWritten(v)} into Go value of type int32`);
    case 'quantity': {
      const err = quantityError(typeof v === 'string' ? v : JSON.stringify(v));
      if (err) fail(err);
      return v;
    }
    case 'time': {
      if (typeof v !== 'string') return fail(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
      const err = timeError(v, c.micro);
      if (err) fail(err);
      return v;
    }
    case 'string':
      if (c.bytes) {
        if (typeof v === 'string') {
          const err = base64Error(v);
          if (err) fail(`error decoding from json: ${err}`);
          return v;
        }
        if (!Array.isArray(v)) fail(`cannot restore slice from ${kind}`);
        return v;
      }
      if (kind === 'string') return v;
      // An integer converts to a string in Go, but JSON has no such conversion.
      return fail(kind === 'int64' ? 'cannot convert int64 to string' : 'unrecognized type: string');
    case 'integer':
      // Outside 2^53 the number is not the literal's value: left to the typed check.
      if (kind === 'int64' && c.go === 'int64' && beyondInt64(v as number, twoTo63IsFloat)) return int64Min;
      if (kind === 'int64') return c.go === 'int32' && (v as number) !== ((v as number) | 0) && !isUnsafeBelowInt64(v as number) ? int32Of(v as number) : v;
      // An integral float64 (a patch's 3.0) converts; a fraction does not.
      return fail(kind === 'float64' ? `cannot convert float64 to ${c.go}` : `unrecognized type: ${c.go}`);
    case 'number':
      if (typeof v !== 'number') fail('unrecognized type: float64');
      return v;
    case 'boolean':
      if (kind !== 'bool') fail('unrecognized type: bool');
      return v;
    case 'array':
      if (!Array.isArray(v)) return fail(`cannot restore slice from ${kind}`);
      for (let i = 0; i < v.length; i++) {
        const out = convert(c.items, v[i], true, twoTo63IsFloat);
        if (out !== v[i]) v[i] = out;
      }
      return v;
    case 'map': {
      if (kind !== 'map') return fail(`cannot restore map from ${kind}`);
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const r = regionAt(region, key);
        if (r === undefined) continue;
        const out = convert(c.values, obj[key], r, twoTo63IsFloat);
        if (out !== obj[key]) obj[key] = out;
      }
      return v;
    }
    case 'struct': {
      if (kind !== 'map') return fail(`cannot restore struct from: ${kind}`);
      const props = c.node.properties ?? {};
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(props)) {
        if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
        const r = regionAt(region, key);
        if (r === undefined) continue;
        const out = convert(props[key], obj[key], r, twoTo63IsFloat);
        if (out !== obj[key]) obj[key] = out;
      }
      return v;
    }
  }
}

/** Between 2^53 and 2^63: an int64 in Go, but not exactly the literal here. */
function isUnsafeBelowInt64(v: number): boolean {
  return !Number.isSafeInteger(v) && v < 2 ** 63 && v > -(2 ** 63);
}

/**
 * The converter's error for `obj` as the kind, or undefined when it converts (or the kind
 * has no generated schema); an integer it converts into an int32 field is wrapped in
 * `obj`, in place, and one past int64 for an int64 field made int64's min.
 * `region`: where `obj` may differ from a stored object. `twoTo63IsFloat`: see beyondInt64.
 */
export function conversionProblemOf(group: string, version: string, kind: string, obj: unknown, region: ChangedRegion = true,
  twoTo63IsFloat = false): string | undefined {
  const name = definitionNameForGVK(group, version, kind);
  if (!name) return undefined;
  try {
    convert(refNode(name), obj, region, twoTo63IsFloat);
  } catch (e) {
    if (e instanceof Unconvertible) return e.message;
    throw e;
  }
  return undefined;
}
