// A CRD version's schema (the plain JSON of openAPIV3Schema) read once into a typed tree,
// cached per schema object. Validation reads every keyword; pruning, defaulting and the
// embedded/list-type checks read only the structural part (properties, items,
// additionalProperties and the x-kubernetes extensions), as upstream's Structural does.
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';
import { effectiveFormat } from './formats.js';

export interface AdditionalProperties {
  /** false only for `additionalProperties: false`. */
  allows: boolean;
  schema?: Schema;
}

export interface Schema {
  /** OpenAPI types; x-kubernetes-int-or-string makes this ["integer", "string"]. */
  types: string[];
  nullable: boolean;
  /** The format left after upstream strips unsupported ones. */
  format: string;
  default?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum: boolean;
  exclusiveMaximum: boolean;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  items?: Schema;
  minProperties?: number;
  maxProperties?: number;
  required: string[];
  properties: Map<string, Schema>;
  additionalProperties?: AdditionalProperties;
  allOf: Schema[];
  anyOf: Schema[];
  oneOf: Schema[];
  not?: Schema;
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  listType?: string;
  listMapKeys: string[];
}

const cache = new WeakMap<object, Schema>();

export function compile(s: JSONSchemaProps): Schema {
  const hit = cache.get(s);
  if (hit) return hit;
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const list = (k: string) => (Array.isArray(s[k]) ? (s[k] as unknown[]).filter(isPlainObject).map(compile) : []);
  const type = typeof s.type === 'string' && s.type !== '' ? s.type : '';
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const out: Schema = {
    types: intOrString ? ['integer', 'string'] : type ? [type] : [],
    nullable: s.nullable === true,
    format: effectiveFormat(s.format, type),
    default: s.default,
    enum: Array.isArray(s.enum) ? s.enum : undefined,
    pattern: typeof s.pattern === 'string' && s.pattern !== '' ? s.pattern : undefined,
    minLength: num('minLength'),
    maxLength: num('maxLength'),
    minimum: num('minimum'),
    maximum: num('maximum'),
    exclusiveMinimum: s.exclusiveMinimum === true,
    exclusiveMaximum: s.exclusiveMaximum === true,
    multipleOf: num('multipleOf'),
    minItems: num('minItems'),
    maxItems: num('maxItems'),
    uniqueItems: s.uniqueItems === true,
    items: isPlainObject(s.items) ? compile(s.items) : undefined,
    minProperties: num('minProperties'),
    maxProperties: num('maxProperties'),
    required: Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [],
    properties: new Map(isPlainObject(s.properties)
      ? Object.entries(s.properties).filter(([, p]) => isPlainObject(p)).map(([k, p]) => [k, compile(p as JSONSchemaProps)])
      : []),
    additionalProperties: additional(s.additionalProperties),
    allOf: list('allOf'),
    anyOf: list('anyOf'),
    oneOf: list('oneOf'),
    not: isPlainObject(s.not) ? compile(s.not) : undefined,
    preserveUnknownFields: s['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: s['x-kubernetes-embedded-resource'] === true,
    listType: typeof s['x-kubernetes-list-type'] === 'string' ? s['x-kubernetes-list-type'] : undefined,
    listMapKeys: Array.isArray(s['x-kubernetes-list-map-keys'])
      ? s['x-kubernetes-list-map-keys'].filter((x): x is string => typeof x === 'string') : [],
  };
  cache.set(s, out);
  return out;
}

function additional(v: unknown): AdditionalProperties | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return { allows: v };
  if (isPlainObject(v)) return { allows: true, schema: compile(v) };
  return undefined;
}

/** The schema for a field of an object: a declared property, else additionalProperties' schema. */
export function fieldSchema(s: Schema | undefined, key: string): Schema | undefined {
  if (!s) return undefined;
  return s.properties.get(key) ?? s.additionalProperties?.schema;
}

/** Upstream treats the resource root as an embedded resource (apiVersion, kind, metadata). */
export function asResourceRoot(s: Schema): Schema {
  return s.embeddedResource ? s : { ...s, embeddedResource: true };
}
