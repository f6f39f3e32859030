// JSON <-> CEL values. Kubernetes objects reach CEL through their OpenAPI types, where
// integer fields are CEL ints; a JSON number that is integral is taken as an int so
// that `object.spec.replicas + 1` and `size(x) == object.spec.replicas` type as upstream.
import type { CelInput, CelValue } from '@bufbuild/cel';
import { cel, wkt } from './runtime.js';
import { definition, definitionNameForGVK, resolve } from '../openapi/schema.js';
import type { SchemaNode } from '../openapi/types.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function toCel(v: unknown): CelInput {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v as CelInput;
  if (Array.isArray(v)) return v.map(toCel);
  if (v instanceof Map) return v as CelInput;
  if (typeof v === 'object') {
    const out: Record<string, CelInput> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = toCel(x);
    return out;
  }
  return String(v);
}

function safeResolve(n: SchemaNode | undefined): SchemaNode | undefined {
  try {
    return n ? resolve(n) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Converts with the kind's schema, as upstream types objects for CEL: date-time strings
 * are timestamps, `number` fields doubles even when integral, `integer` fields ints.
 * Where the schema says nothing, toCel's rules apply.
 */
export function toCelWithSchema(v: unknown, node: SchemaNode | undefined): CelInput {
  const t = safeResolve(node);
  if (!t || v === null || v === undefined) return toCel(v);
  if (t['x-kubernetes-int-or-string'] || t['x-kubernetes-preserve-unknown-fields']) return toCel(v);
  if (typeof v === 'string' && t.type === 'string' && t.format === 'date-time') {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? v : (wkt().timestampFromDate(d) as unknown as CelInput);
  }
  if (typeof v === 'number' && t.type === 'number') return v;
  if (Array.isArray(v)) return v.map((x) => toCelWithSchema(x, t.items));
  if (typeof v === 'object' && !(v instanceof Map)) {
    const out: Record<string, CelInput> = {};
    const extra = t.additionalProperties && typeof t.additionalProperties === 'object' ? t.additionalProperties : undefined;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x !== undefined) out[k] = toCelWithSchema(x, t.properties?.[k] ?? extra);
    }
    return out;
  }
  return toCel(v);
}

/** An object of a built-in kind, typed by its schema (plain toCel for kinds without one). */
export function toCelObject(v: unknown, group: string, version: string, kind: string): CelInput {
  const name = definitionNameForGVK(group, version, kind);
  return toCelWithSchema(v, name ? definition(name) : undefined);
}

/** A CEL result as plain JSON (ints become numbers), for messages and annotation values. */
export function fromCel(v: CelValue): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (cel().isCelUint(v)) return Number(v.value);
  if (cel().isCelList(v)) return [...v].map((x) => fromCel(x as CelValue));
  if (cel().isCelMap(v)) {
    const out: Record<string, Json> = {};
    for (const [k, x] of v.entries()) out[String(k)] = fromCel(x as CelValue);
    return out;
  }
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  return String(v);
}

/** Go's %v-like rendering of a CEL value for messages. */
export function celTypeName(v: CelValue): string {
  if (v === null) return 'null_type';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (cel().isCelUint(v)) return 'uint';
  if (cel().isCelList(v)) return 'list';
  if (cel().isCelMap(v)) return 'map';
  if (v instanceof Uint8Array) return 'bytes';
  return 'object';
}
