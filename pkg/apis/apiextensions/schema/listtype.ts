// Uniqueness of x-kubernetes-list-type set and map arrays (upstream: apiextensions
// schema/listtype ValidateListSetsAndMaps). A set reports each value's second occurrence
// as a Duplicate; a map does the same for the tuple of its x-kubernetes-list-map-keys,
// an item lacking a key counting as "unspecified".
import type { FieldError } from '../../../runtime/errors.js';
import { GoLiteral } from '../../../runtime/gofmt.js';
import { isPlainObject } from '../../../runtime/object.js';
import { child, duplicate, index, invalid, key } from '../../validation/field.js';
import type { Schema } from './compiled.js';
import { badValue, goSharpV } from './gofmt.js';

export function validateListSetsAndMaps(path: string, s: Schema | undefined, obj: unknown): FieldError[] {
  if (!s || !isPlainObject(obj)) return [];
  const errs: FieldError[] = [];
  if (s.additionalProperties?.schema) {
    for (const [k, v] of Object.entries(obj)) errs.push(...listSetAndMaps(key(path, k), s.additionalProperties.schema, v));
  }
  for (const [k, v] of Object.entries(obj)) {
    const sub = s.properties.get(k);
    if (sub) errs.push(...listSetAndMaps(child(path, k), sub, v));
  }
  return errs;
}

function listSetAndMaps(path: string, s: Schema, v: unknown): FieldError[] {
  if (Array.isArray(v)) return validateArray(path, s, v);
  if (isPlainObject(v)) return validateListSetsAndMaps(path, s, v);
  return [];
}

function validateArray(path: string, s: Schema, arr: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  if (s.listType === 'set') {
    for (const i of nonUniqueIndices(arr)) errs.push(duplicate(index(path, i), badValue(arr[i])));
  } else if (s.listType === 'map') {
    errs.push(...validateListMap(path, s, arr));
  }
  if (s.items) arr.forEach((v, i) => errs.push(...listSetAndMaps(index(path, i), s.items as Schema, v)));
  return errs;
}

const unspecified = Symbol('unspecified key');

/** Indices of the second occurrence of each repeated value (later repeats are not reported). */
function nonUniqueIndices(values: unknown[]): number[] {
  if (values.length <= 1) return [];
  const seen = new Map<unknown, number>();
  const out: number[] = [];
  values.forEach((x, i) => {
    // Compounds compare by their JSON; scalars by value (null and "unspecified" apart).
    const id = x !== null && typeof x === 'object' ? `json:${JSON.stringify(sortKeys(x))}` : x;
    const times = seen.get(id) ?? 0;
    seen.set(id, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

/** Go's json.Marshal of a map sorts its keys. */
function sortKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (isPlainObject(x)) return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys(x[k])]));
  return x;
}

function validateListMap(path: string, s: Schema, arr: unknown[]): FieldError[] {
  const bad = arr.findIndex((x) => x !== null && !isPlainObject(x));
  if (bad >= 0) return [invalid(index(path, bad), badValue(arr[bad]), 'must be an object for an array of list-type map')];
  if (arr.length <= 1) return [];
  if (s.listMapKeys.length === 1) {
    const [keyField] = s.listMapKeys;
    const keys = arr.map((x) => (isPlainObject(x) && Object.hasOwn(x, keyField) ? x[keyField] : unspecified));
    return nonUniqueIndices(keys).map((i) => duplicate(index(path, i),
      new GoLiteral(goSharpV(keys[i] === unspecified ? {} : { [keyField]: keys[i] }))));
  }
  const keys = arr.map((x) => {
    const k: Record<string, unknown> = {};
    if (isPlainObject(x)) for (const f of s.listMapKeys) if (Object.hasOwn(x, f)) k[f] = x[f];
    return k;
  });
  return nonUniqueIndices(keys).map((i) => duplicate(index(path, i), new GoLiteral(goSharpV(keys[i]))));
}
