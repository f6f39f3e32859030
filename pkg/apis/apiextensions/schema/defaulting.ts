// Structural defaulting of custom resources (upstream: apiextensions schema/defaulting
// PruneNonNullableNullsWithoutDefaults, then Default). A null in a non-nullable field is
// dropped when the field has no default and replaced by the default when it has one; a
// missing field gets its default; nullable fields keep their nulls. Defaults are copied.
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';
import { compile, fieldSchema, type Schema } from './compiled.js';

/** Applies `default`s in place, as the CR decoder does on create, update and read. */
export function defaultCustomResource(obj: unknown, schema: JSONSchemaProps): void {
  const s = compile(schema);
  pruneNonNullableNullsWithoutDefaults(obj, s);
  applyDefaults(obj, s);
}

const hasDefault = (s: Schema | undefined): s is Schema => s !== undefined && s.default !== undefined && s.default !== null;
const isNonNullableNull = (x: unknown, s: Schema | undefined) => x === null && s !== undefined && !s.nullable;

export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: Schema | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, s?.items);
    return;
  }
  if (!isPlainObject(x)) return;
  for (const k of Object.keys(x)) {
    const sub = fieldSchema(s, k);
    if (isNonNullableNull(x[k], sub) && !hasDefault(sub)) delete x[k];
    else pruneNonNullableNullsWithoutDefaults(x[k], sub);
  }
}

export function applyDefaults(x: unknown, s: Schema | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      if (isNonNullableNull(v, s.items) && hasDefault(s.items)) x[i] = structuredClone(s.items.default);
      applyDefaults(x[i], s.items);
    });
    return;
  }
  if (!isPlainObject(x)) return;
  for (const [k, prop] of s.properties) {
    if (!hasDefault(prop)) continue;
    if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) x[k] = structuredClone(prop.default);
  }
  for (const k of Object.keys(x)) {
    const prop = s.properties.get(k);
    if (prop) {
      applyDefaults(x[k], prop);
    } else if (s.additionalProperties) {
      const ap = s.additionalProperties.schema;
      if (isNonNullableNull(x[k], ap) && hasDefault(ap)) x[k] = structuredClone(ap.default);
      applyDefaults(x[k], ap);
    }
  }
}
