// The documentation of the meta/v1 types (ObjectMeta, ListMeta, OwnerReference, ...) as
// upstream publishes it. The generated schema carries structure only; these types are the
// exception because every custom resource's OpenAPI refers to them and clients print
// their documentation (`kubectl explain <plural>.metadata`). Data from
// hack/gen-meta-descriptions.mjs.
import published from '../generated/meta-descriptions.json' with { type: 'json' };
import type { SchemaNode } from './types.js';

interface Descriptions { description?: string; properties?: Record<string, string> }

const byName = published as Record<string, Descriptions>;

/** `node` (the definition `name`) with upstream's descriptions of it and its properties, when it has any. */
export function withPublishedDescriptions(name: string, node: SchemaNode): SchemaNode {
  const d = Object.prototype.hasOwnProperty.call(byName, name) ? byName[name] : undefined;
  if (!d) return node;
  const out: SchemaNode = { ...node };
  if (d.description) out.description = d.description;
  if (d.properties && node.properties) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([p, child]) => {
      const text = d.properties![p];
      return [p, text ? { ...child, description: text } : child];
    }));
  }
  return out;
}
