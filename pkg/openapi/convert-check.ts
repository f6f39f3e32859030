// Type checks of a strategic merge patch's result, reported the way upstream's patcher
// fails: it does not decode JSON but converts the patched map into the kind's Go struct
// (runtime.DefaultUnstructuredConverter), which stops at the first value it cannot
// convert and words its errors its own way ("cannot convert int64 to string",
// "unrecognized type: int32", "cannot restore struct from: slice"). Types with their own
// JSON decoding (Time, Quantity, IntOrString) are handed the value re-encoded as JSON.
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

function convert(node: SchemaNode, v: unknown, region: ChangedRegion): void {
  if (v === null || v === undefined) return;
  const c = classify(node);
  const kind = goKind(v);
  switch (c.k) {
    case 'any':
      return;
    case 'intOrString':
      if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) return;
      return fail(`json: cannot unmarshal ${numberAsWritten(v)} into Go value of type int32`);
    case 'quantity': {
      const err = quantityError(typeof v === 'string' ? v : JSON.stringify(v));
      if (err) fail(err);
      return;
    }
    case 'time': {
      if (typeof v !== 'string') return fail(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
      const err = timeError(v, c.micro);
      if (err) fail(err);
      return;
    }
    case 'string':
      if (c.bytes) {
        if (typeof v === 'string') {
          const err = base64Error(v);
          if (err) fail(`error decoding from json: ${err}`);
          return;
        }
        if (!Array.isArray(v)) fail(`cannot restore slice from ${kind}`);
        return;
      }
      if (kind === 'string') return;
      // An integer converts to a string in Go, but JSON has no such conversion.
      return fail(kind === 'int64' ? 'cannot convert int64 to string' : 'unrecognized type: string');
    case 'integer':
      if (kind === 'int64') return;
      // An integral float64 (a patch's 3.0) converts; a fraction does not.
      return fail(kind === 'float64' ? `cannot convert float64 to ${c.go}` : `unrecognized type: ${c.go}`);
    case 'number':
      if (typeof v !== 'number') fail('unrecognized type: float64');
      return;
    case 'boolean':
      if (kind !== 'bool') fail('unrecognized type: bool');
      return;
    case 'array':
      if (!Array.isArray(v)) return fail(`cannot restore slice from ${kind}`);
      for (const item of v) convert(c.items, item, true);
      return;
    case 'map': {
      if (kind !== 'map') return fail(`cannot restore map from ${kind}`);
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const r = regionAt(region, key);
        if (r !== undefined) convert(c.values, obj[key], r);
      }
      return;
    }
    case 'struct': {
      if (kind !== 'map') return fail(`cannot restore struct from: ${kind}`);
      const props = c.node.properties ?? {};
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(props)) {
        if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
        const r = regionAt(region, key);
        if (r !== undefined) convert(props[key], obj[key], r);
      }
      return;
    }
  }
}

/**
 * The converter's error for `obj` as the kind, or undefined when it converts (or the kind
 * has no generated schema). `region`: where `obj` may differ from a stored object.
 */
export function conversionProblemOf(group: string, version: string, kind: string, obj: unknown, region: ChangedRegion = true): string | undefined {
  const name = definitionNameForGVK(group, version, kind);
  if (!name) return undefined;
  try {
    convert(refNode(name), obj, region);
  } catch (e) {
    if (e instanceof Unconvertible) return e.message;
    throw e;
  }
  return undefined;
}
