// Renders generated schema nodes as OpenAPI v2 or v3 schemas, and computes which
// definitions a set of operations needs (the transitive closure of their `$ref`s).
import type { JSONObject, SchemaNode } from '../types.js';
import type { DefinitionSource } from './source.js';

export type { JSONObject } from '../types.js';

/** Names reachable from `roots` through `$ref`, sorted. */
export function referencedDefinitions(roots: Iterable<string>, source: DefinitionSource, v3: boolean): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    if (!source.has(name)) continue;
    seen.add(name);
    stack.push(...source.refs(name, v3));
  }
  return [...seen].sort();
}

export function collectRefs(node: SchemaNode, out: string[]): void {
  if (node.$ref) out.push(node.$ref);
  for (const p of Object.values(node.properties ?? {})) collectRefs(p, out);
  if (node.items) collectRefs(node.items, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') collectRefs(node.additionalProperties, out);
}

export function convert(node: SchemaNode, v3: boolean): JSONObject {
  const out: JSONObject = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case '$ref':
        break;
      case 'properties': {
        const props: JSONObject = {};
        for (const [name, child] of Object.entries(value as Record<string, SchemaNode>)) props[name] = convert(child, v3);
        out.properties = props;
        break;
      }
      case 'items':
        out.items = convert(value as SchemaNode, v3);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'boolean' ? value : convert(value as SchemaNode, v3);
        break;
      case 'default':
      case 'oneOf':
        // v2 carries neither (upstream strips defaults from v2; oneOf is not Swagger 2.0).
        if (v3) out[key] = value;
        break;
      default:
        out[key] = value;
    }
  }
  if (v3 && out.oneOf) delete out.type;
  if (node.$ref) {
    const ref = v3 ? `#/components/schemas/${node.$ref}` : `#/definitions/${node.$ref}`;
    // v3 wraps a reference that has siblings, as upstream does; v2 keeps siblings beside it.
    if (v3 && Object.keys(out).length > 0) return { allOf: [{ $ref: ref }], ...out };
    return { $ref: ref, ...out };
  }
  return out;
}

export function toV2Schema(node: SchemaNode): JSONObject {
  return convert(node, false);
}

export function toV3Schema(node: SchemaNode): JSONObject {
  return convert(node, true);
}

export function definitionsFor(names: string[], v3: boolean, source: DefinitionSource): JSONObject {
  const out: JSONObject = {};
  for (const name of names) {
    const def = source.render(name, v3);
    if (def) out[name] = def;
  }
  return out;
}
