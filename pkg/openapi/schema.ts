// Read access to the generated schema of built-in types: definitions by name, by
// group/version/kind, with `$ref` resolution. Everything else in pkg/openapi (type
// checks, unknown fields, patch schemas, published documents) reads through here.
import generated from '../generated/openapi-schema.json' with { type: 'json' };
import type { SchemaModule, SchemaNode } from './types.js';

const module = generated as unknown as SchemaModule;

// By group, then version, then kind: every write's body asks (its type checks and unknown
// fields), and a key joined from the three is a new string to hash on each lookup.
const byGVK = new Map<string, Map<string, Map<string, string>>>();
for (const [name, def] of Object.entries(module.definitions)) {
  for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
    let versions = byGVK.get(gvk.group);
    if (!versions) byGVK.set(gvk.group, versions = new Map());
    let kinds = versions.get(gvk.version);
    if (!kinds) versions.set(gvk.version, kinds = new Map());
    // Upstream never lets two definitions claim one GVK; keep the first if it did.
    if (!kinds.has(gvk.kind)) kinds.set(gvk.kind, name);
  }
}

export function definition(name: string): SchemaNode | undefined {
  return Object.prototype.hasOwnProperty.call(module.definitions, name) ? module.definitions[name] : undefined;
}

export function definitionNames(): string[] {
  return Object.keys(module.definitions);
}

/** The upstream definition name of a kind, e.g. ("", "v1", "ConfigMap") -> io.k8s.api.core.v1.ConfigMap. */
export function definitionNameForGVK(group: string, version: string, kind: string): string | undefined {
  return byGVK.get(group)?.get(version)?.get(kind);
}

const refNodes = new Map<string, SchemaNode>();

/**
 * The node `{ $ref: name }`, one per name: how a definition is walked from its root, and
 * classify() memoizes by node (a new literal per walk was classified again each time).
 */
export function refNode(name: string): SchemaNode {
  let node = refNodes.get(name);
  if (!node) refNodes.set(name, node = { $ref: name });
  return node;
}

/** Follows `$ref` chains; siblings of a `$ref` (markers, defaults) are kept over the target's. */
export function resolve(node: SchemaNode): SchemaNode {
  let cur = node;
  const seen = new Set<string>();
  while (cur.$ref) {
    if (seen.has(cur.$ref)) throw new Error(`circular $ref ${cur.$ref}`);
    seen.add(cur.$ref);
    const target = definition(cur.$ref);
    if (!target) throw new Error(`unknown definition ${cur.$ref}`);
    const { $ref: _ref, ...siblings } = cur;
    cur = Object.keys(siblings).length === 0 ? target : { ...target, ...siblings };
  }
  return cur;
}

/** The Go type name a definition decodes into, as Go prints it: `v1.PodSpec`. */
export function goTypeName(definitionName: string): string {
  const parts = definitionName.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : definitionName;
}

/** The short type name of a definition (`PodSpec`), as Go names a struct in errors. */
export function shortTypeName(definitionName: string): string {
  return definitionName.slice(definitionName.lastIndexOf('.') + 1);
}
