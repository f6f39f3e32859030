// PatchSchema over the generated schema: what strategic merge patch and server-side
// apply need to know about each node of a built-in type. `$ref`s are resolved only
// when a caller walks into them.
import type { PatchSchema } from '../apis/meta/patch-schema.js';
import { definition, definitionNameForGVK, resolve } from './schema.js';
import type { SchemaNode } from './types.js';

const cache = new WeakMap<SchemaNode, NodePatchSchema>();

function wrap(node: SchemaNode | boolean | undefined): PatchSchema | undefined {
  if (!node || typeof node !== 'object') return undefined;
  let s = cache.get(node);
  if (!s) {
    s = new NodePatchSchema(node);
    cache.set(node, s);
  }
  return s;
}

class NodePatchSchema implements PatchSchema {
  readonly type?: PatchSchema['type'];
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: string[];
  readonly mapType?: 'atomic' | 'granular';
  readonly isStruct?: boolean;
  private readonly node: SchemaNode;

  constructor(raw: SchemaNode) {
    const node = resolve(raw);
    this.node = node;
    this.type = node.type ?? (node.properties || node.additionalProperties ? 'object' : node.items ? 'array' : undefined);
    this.patchStrategy = node['x-kubernetes-patch-strategy'];
    this.patchMergeKey = node['x-kubernetes-patch-merge-key'];
    this.listType = node['x-kubernetes-list-type'];
    this.listMapKeys = node['x-kubernetes-list-map-keys'];
    this.mapType = node['x-kubernetes-map-type'];
    this.isStruct = this.type === 'object' && node.properties !== undefined;
  }

  field(name: string): PatchSchema | undefined {
    const props = this.node.properties;
    if (props) return Object.prototype.hasOwnProperty.call(props, name) ? wrap(props[name]) : undefined;
    // A map's keys all share the value schema.
    return wrap(this.node.additionalProperties);
  }

  items(): PatchSchema | undefined {
    if (this.node.items) return wrap(this.node.items);
    return wrap(this.node.additionalProperties);
  }
}

/** Patch schema of a built-in kind; undefined for kinds the generated schema does not know. */
export function patchSchemaFor(group: string, version: string, kind: string): PatchSchema | undefined {
  const name = definitionNameForGVK(group, version, kind);
  return name ? patchSchemaForDefinition(name) : undefined;
}

/** Patch schema of a definition by upstream name, e.g. io.k8s.api.core.v1.PodSpec. */
export function patchSchemaForDefinition(name: string): PatchSchema | undefined {
  return wrap(definition(name));
}
