// JSON <-> CEL values. Kubernetes objects reach CEL through their OpenAPI types, where
// integer fields are CEL ints; a JSON number that is integral is taken as an int so
// that `object.spec.replicas + 1` and `size(x) == object.spec.replicas` type as upstream.
import { isCelList, isCelMap, isCelUint, type CelInput, type CelValue } from '@bufbuild/cel';

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

/** A CEL result as plain JSON (ints become numbers), for messages and annotation values. */
export function fromCel(v: CelValue): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (isCelUint(v)) return Number(v.value);
  if (isCelList(v)) return [...v].map((x) => fromCel(x as CelValue));
  if (isCelMap(v)) {
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
  if (isCelUint(v)) return 'uint';
  if (isCelList(v)) return 'list';
  if (isCelMap(v)) return 'map';
  if (v instanceof Uint8Array) return 'bytes';
  return 'object';
}
