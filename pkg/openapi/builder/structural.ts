// A CRD version's openAPIV3Schema as upstream publishes it: reduced to what its structural
// form keeps (structuralschema.NewStructural + ToKubeOpenAPI), with int-or-string unfolded
// into its anyOf (Unfold), and for Swagger 2.0 stripped of what kubectl's v2 reader cannot
// take (ToStructuralOpenAPIV2). Every function returns a new tree; inputs are not touched.
import type { JSONObject } from '../types.js';

/** Keys the structural form keeps; everything else (example, externalDocs, $schema, ...) is dropped. */
const KEPT = new Set([
  'description', 'type', 'title', 'default', 'nullable', 'format', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf',
  'enum', 'maxProperties', 'minProperties', 'required', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'items',
  'additionalProperties', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/** Go's omitempty: these are not written when false, empty or zero-length. */
const FLAGS = new Set(['nullable', 'uniqueItems', 'exclusiveMaximum', 'exclusiveMinimum',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']);
const STRINGS = new Set(['description', 'type', 'title', 'format', 'pattern']);
const LISTS = new Set(['required', 'allOf', 'oneOf', 'anyOf', 'x-kubernetes-list-map-keys', 'x-kubernetes-validations']);
const JUNCTORS = ['allOf', 'oneOf', 'anyOf'] as const;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function omitted(key: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (FLAGS.has(key)) return value === false;
  if (STRINGS.has(key)) return value === '';
  if (LISTS.has(key)) return Array.isArray(value) && value.length === 0;
  if (key === 'properties') return isObject(value) && Object.keys(value).length === 0;
  return false;
}

/** The schema as its structural form publishes it. */
export function structural(schema: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT.has(key) || omitted(key, value)) continue;
    if (key === 'properties' && isObject(value)) {
      const props: JSONObject = {};
      for (const [name, child] of Object.entries(value)) if (isObject(child)) props[name] = structural(child);
      out.properties = props;
    } else if ((key === 'items' || key === 'not' || key === 'additionalProperties') && isObject(value)) {
      out[key] = structural(value);
    } else if ((JUNCTORS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.filter(isObject).map(structural);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Visits the structural nodes (not the value validations under junctors), parent first. */
function visit(node: JSONObject, fn: (n: JSONObject) => void): void {
  fn(node);
  if (isObject(node.items)) visit(node.items, fn);
  if (isObject(node.properties)) for (const child of Object.values(node.properties)) if (isObject(child)) visit(child, fn);
  if (isObject(node.additionalProperties)) visit(node.additionalProperties, fn);
}

const INT_OR_STRING = (): JSONObject[] => [{ type: 'integer' }, { type: 'string' }];

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  const types = anyOf.map((a) => (isObject(a) && Object.keys(a).length === 1 ? a.type : undefined)).sort();
  return types[0] === 'integer' && types[1] === 'string';
}

/** x-kubernetes-int-or-string says "integer or string" as an anyOf, unless the schema already does. */
export function unfold(schema: JSONObject): JSONObject {
  const out = structuredClone(schema);
  visit(out, (n) => {
    if (n['x-kubernetes-int-or-string'] !== true || isIntOrStringAnyOf(n.anyOf)) return;
    const allOf = Array.isArray(n.allOf) ? n.allOf : [];
    if (isObject(allOf[0]) && isIntOrStringAnyOf(allOf[0].anyOf)) return;
    if (n.anyOf === undefined) n.anyOf = INT_OR_STRING();
    else n.allOf = [{ anyOf: INT_OR_STRING() }, ...allOf];
  });
  return out;
}

/**
 * The Swagger 2.0 form: no junctors or `not`; nullable and preserve-unknown-fields nodes
 * lose their type and children (kubectl's v2 reader rejects what they would let through),
 * arrays left without items lose their type, and nullable fields are not required.
 */
export function toSwagger2(schema: JSONObject): JSONObject {
  const out = structuredClone(schema);
  visit(out, (n) => {
    for (const key of [...JUNCTORS, 'not']) delete n[key];
    if (n.nullable === true) {
      delete n.type;
      delete n.nullable;
      delete n.items;
      delete n.properties;
    }
    if (n['x-kubernetes-preserve-unknown-fields'] === true) {
      delete n.items;
      delete n.properties;
      if (n.type === 'object') delete n.type;
    }
    if (n.type === 'array' && n.items === undefined) delete n.type;
    const props = isObject(n.properties) ? n.properties : {};
    if (Array.isArray(n.required)) {
      const nullable = new Set(Object.keys(props).filter((k) => isObject(props[k]) && props[k].nullable === true));
      const required = (n.required as unknown[]).filter((r) => !nullable.has(r as string));
      if (required.length) n.required = required;
      else delete n.required;
    }
    if (isObject(n.additionalProperties) && n.additionalProperties.nullable === true) delete n.required;
  });
  return out;
}
