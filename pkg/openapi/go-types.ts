// How a schema node is named in upstream's decode errors (Go type strings such as
// `int32`, `[]string`, `map[string][]uint8`, `v1.PodSpec`).
import { definition, goTypeName, resolve } from './schema.js';
import type { SchemaNode } from './types.js';

export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
export const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';

/** What the decoder does with a node: the special cases are types with their own JSON decoding. */
export type NodeClass =
  | { k: 'any' }
  | { k: 'intOrString' }
  | { k: 'quantity' }
  | { k: 'time'; micro: boolean }
  | { k: 'string'; bytes: boolean }
  | { k: 'integer'; go: string; min: number; max: number }
  | { k: 'number' }
  | { k: 'boolean' }
  | { k: 'array'; items: SchemaNode }
  | { k: 'map'; values: SchemaNode }
  | { k: 'struct'; node: SchemaNode; name?: string };

const classes = new WeakMap<SchemaNode, NodeClass>();

/** How the decoder treats a node; memoized, since schema nodes are shared and immutable. */
export function classify(raw: SchemaNode): NodeClass {
  let c = classes.get(raw);
  if (!c) {
    c = classifyUncached(raw);
    classes.set(raw, c);
  }
  return c;
}

function classifyUncached(raw: SchemaNode): NodeClass {
  const name = raw.$ref;
  if (name === INT_OR_STRING || raw.format === 'int-or-string' || raw['x-kubernetes-int-or-string']) return { k: 'intOrString' };
  if (name === QUANTITY) return { k: 'quantity' };
  if (name === TIME) return { k: 'time', micro: false };
  if (name === MICRO_TIME) return { k: 'time', micro: true };
  const node = resolve(raw);
  if (node['x-kubernetes-preserve-unknown-fields']) return { k: 'any' };
  switch (node.type) {
    case 'string':
      return { k: 'string', bytes: node.format === 'byte' };
    case 'integer':
      return node.format === 'int32'
        ? { k: 'integer', go: 'int32', min: -2147483648, max: 2147483647 }
        : { k: 'integer', go: 'int64', min: -9223372036854775808, max: 9223372036854775807 };
    case 'number':
      return { k: 'number' };
    case 'boolean':
      return { k: 'boolean' };
    case 'array':
      return node.items ? { k: 'array', items: node.items } : { k: 'any' };
    default:
      if (node.properties) return { k: 'struct', node, name: finalRef(raw) };
      if (node.additionalProperties && typeof node.additionalProperties === 'object') {
        return { k: 'map', values: node.additionalProperties };
      }
      // Objects without declared fields (RawExtension, FieldsV1, JSON) take any value.
      return { k: 'any' };
  }
}

/** The definition a `$ref` chain ends at (its name is the Go struct's name). */
function finalRef(raw: SchemaNode): string | undefined {
  let name: string | undefined;
  let cur: SchemaNode | undefined = raw;
  const seen = new Set<string>();
  while (cur?.$ref && !seen.has(cur.$ref)) {
    name = cur.$ref;
    seen.add(name);
    cur = definition(name);
  }
  return name;
}

/** The Go type a node decodes into, as printed by encoding/json errors. */
export function goType(raw: SchemaNode): string {
  const c = classify(raw);
  switch (c.k) {
    case 'any': return 'interface {}';
    case 'intOrString': return 'int32';
    case 'quantity': return 'resource.Quantity';
    case 'time': return 'string';
    case 'string': return c.bytes ? '[]uint8' : 'string';
    case 'integer': return c.go;
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'array': return `[]${goType(c.items)}`;
    case 'map': return `map[string]${goType(c.values)}`;
    case 'struct': return c.name ? goTypeName(c.name) : 'struct';
  }
}
