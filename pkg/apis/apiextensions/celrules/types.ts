// CEL types of validation rules, derived from a CRD's structural schema the way
// upstream's SchemaDeclType does: objects with properties are object types whose fields
// are the (escaped) property names, additionalProperties make maps, items make lists,
// int-or-string is dyn, formats date/date-time/duration/byte become timestamp, duration
// and bytes. Every type carries the size bounds the cost estimator needs: the most
// elements (or bytes) it can hold and the fewest bytes it takes serialized.
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';

export type Primitive = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'type'
  | 'google.protobuf.Timestamp' | 'google.protobuf.Duration';

export type CelT =
  | { kind: 'prim'; name: Primitive; size?: Bounds }
  | { kind: 'dyn'; size?: Bounds }
  | { kind: 'list'; elem: CelT; size?: Bounds }
  | { kind: 'map'; key: CelT; value: CelT; size?: Bounds }
  | { kind: 'object'; name: string; fields: ReadonlyMap<string, CelT>; size?: Bounds }
  /** A type parameter of an overload (A, B, K, V). */
  | { kind: 'param'; name: string }
  /** The element type of an empty list literal, fixed by its first use. */
  | { kind: 'free' };

/** maxElements: the most items/properties/bytes; minSize: the fewest bytes serialized. */
export interface Bounds { maxElements: number; minSize: number }

export const prim = (name: Primitive): CelT => ({ kind: 'prim', name });
export const DYN: CelT = { kind: 'dyn' };
export const INT = prim('int');
export const UINT = prim('uint');
export const DOUBLE = prim('double');
export const BOOL = prim('bool');
export const STRING = prim('string');
export const BYTES = prim('bytes');
export const NULL = prim('null_type');
export const TYPE = prim('type');
export const TIMESTAMP = prim('google.protobuf.Timestamp');
export const DURATION = prim('google.protobuf.Duration');
export const listOf = (elem: CelT): CelT => ({ kind: 'list', elem });
export const mapOf = (key: CelT, value: CelT): CelT => ({ kind: 'map', key, value });

/** Upstream's bound on a request body; sizes of unbounded values are estimated from it. */
export const maxRequestSizeBytes = 3 * 1024 * 1024;
const minStringSize = 2; // ""
const minBoolSize = 4; // true
const minNumberSize = 1; // 0
const minDurationSize = 4; // "0s"
const maxDurationSize = 32;
const dateSize = 12; // "2006-01-02"
const minDatetimeSize = 22;
const maxDatetimeSize = 36;

/** cel-go's name of a type, as its error messages print it. */
export function typeName(t: CelT): string {
  switch (t.kind) {
    case 'prim': return t.name;
    case 'dyn': return 'dyn';
    case 'free': return 'dyn';
    case 'param': return t.name;
    case 'list': return `list(${typeName(t.elem)})`;
    case 'map': return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object': return t.name;
  }
}

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/**
 * A property name as CEL sees it (upstream's Escape): keywords become __kw__, and `__`,
 * `.`, `-`, `/` are spelled out; names with other characters, or starting with a digit,
 * cannot be reached from CEL (undefined).
 */
export function escapeName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (reserved.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z0-9_.\-/]+$/.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[m]!);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : undefined;
}

/** The schema of a resource root as rules see it: apiVersion, kind, metadata.name and generateName. */
export function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const props = isPlainObject(s.properties) ? { ...(s.properties as Record<string, JSONSchemaProps>) } : {};
  props.apiVersion = { type: 'string' };
  props.kind = { type: 'string' };
  props.metadata = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
  return { ...s, type: 'object', properties: props };
}

export function itemsOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isPlainObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
}

export function additionalOf(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isPlainObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
}

export function propertiesOf(s: JSONSchemaProps): Array<[string, JSONSchemaProps]> {
  return isPlainObject(s.properties) ? Object.entries(s.properties as Record<string, JSONSchemaProps>).filter(([, v]) => isPlainObject(v)) : [];
}

/**
 * The CEL type of values of schema `s`; undefined where rules cannot see the value (no
 * type, or an array without items). `name` names object types, as cel-go prints them.
 */
export function declType(s: JSONSchemaProps, isResourceRoot: boolean, name = 'object'): CelT | undefined {
  if (s['x-kubernetes-int-or-string'] === true) {
    return { kind: 'dyn', size: { maxElements: maxRequestSizeBytes - 2, minSize: 1 } };
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      const items = itemsOf(s);
      if (!items) return undefined;
      const elem = declType(items, items['x-kubernetes-embedded-resource'] === true, `${name}.@idx`);
      if (!elem) return undefined;
      const max = num(s.maxItems) ?? Math.floor((maxRequestSizeBytes - 2) / (minSizeOf(elem) + 1));
      return { kind: 'list', elem, size: { maxElements: max, minSize: 2 } };
    }
    case 'object': {
      const extra = additionalOf(s);
      if (extra) {
        const value = declType(extra, extra['x-kubernetes-embedded-resource'] === true, `${name}.@elem`);
        if (!value) return undefined;
        const max = num(s.maxProperties) ?? Math.floor((maxRequestSizeBytes - 2) / (minSizeOf(value) + 6));
        return { kind: 'map', key: STRING, value, size: { maxElements: max, minSize: 2 } };
      }
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const fields = new Map<string, CelT>();
      let minSize = 2;
      for (const [prop, ps] of propertiesOf(s)) {
        const escaped = escapeName(prop);
        const t = declType(ps, ps['x-kubernetes-embedded-resource'] === true, `${name}.${escaped ?? prop}`);
        if (!t) continue;
        if (escaped) fields.set(escaped, t);
        if (required.has(prop) && ps.default === undefined) minSize += prop.length + minSizeOf(t) + 4;
      }
      return { kind: 'object', name, fields, size: { maxElements: 0, minSize } };
    }
    case 'string':
      return stringType(s);
    case 'boolean': return { kind: 'prim', name: 'bool', size: { maxElements: 0, minSize: minBoolSize } };
    case 'number': return { kind: 'prim', name: 'double', size: { maxElements: 0, minSize: minNumberSize } };
    case 'integer': return { kind: 'prim', name: 'int', size: { maxElements: 0, minSize: minNumberSize } };
    default: return undefined;
  }
}

function stringType(s: JSONSchemaProps): CelT {
  const maxLength = num(s.maxLength);
  switch (s.format) {
    case 'byte': return { kind: 'prim', name: 'bytes', size: { maxElements: maxLength ?? maxRequestSizeBytes - 2, minSize: minStringSize } };
    case 'duration': return { kind: 'prim', name: 'google.protobuf.Duration', size: { maxElements: maxDurationSize, minSize: minDurationSize } };
    case 'date': return { kind: 'prim', name: 'google.protobuf.Timestamp', size: { maxElements: dateSize, minSize: dateSize } };
    case 'date-time': return { kind: 'prim', name: 'google.protobuf.Timestamp', size: { maxElements: maxDatetimeSize, minSize: minDatetimeSize } };
    default: break;
  }
  let max: number;
  if (maxLength !== undefined) max = maxLength * 4; // maxLength counts code points, up to 4 bytes each
  else if (Array.isArray(s.enum) && s.enum.length > 0) max = Math.max(...s.enum.map((e) => (typeof e === 'string' ? Buffer.byteLength(e) : 0)));
  else max = maxRequestSizeBytes - 2;
  return { kind: 'prim', name: 'string', size: { maxElements: max, minSize: minStringSize } };
}

export function minSizeOf(t: CelT): number {
  return 'size' in t && t.size ? t.size.minSize : 1;
}

/** The most times a value of this type can occur in one request (upstream's maxCardinality). */
export function maxCardinality(t: CelT): number {
  return Math.floor(maxRequestSizeBytes / (minSizeOf(t) + 1));
}
