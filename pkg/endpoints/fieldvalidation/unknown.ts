// Unknown fields: found in document order (JSON bodies) or in the sorted order of a
// re-encoded object (YAML bodies, patch results), and dropped from what is stored,
// since upstream decodes into typed objects that have no place for them.
import type { ChangedRegion } from '../../runtime/changed-region.js';
import { classify } from '../../openapi/go-types.js';
import { definitionNameForGVK, refNode } from '../../openapi/schema.js';
import { unknownFields } from '../../openapi/unknown-fields.js';
import type { SchemaNode } from '../../openapi/types.js';
import { isPlainObject } from '../../runtime/object.js';

/**
 * The type a body is decoded into. Built-in kinds are known by group, version and kind;
 * custom resources bring their schema's pruning, whose pruned paths are their unknown fields.
 */
export interface TypeRef { group: string; version: string; kind: string; pruning?: Pruning }

export interface Pruning {
  /** Paths of the fields the schema does not declare, without changing `obj`. */
  unknownFields(obj: unknown): string[];
  /** Drops those fields, in place. */
  prune(obj: unknown): void;
}

/** The body type of a resource's endpoint. */
export function typeRefOf(def: { group: string; version: string; kind: string; customResource?: { pruning?: Pruning } }): TypeRef {
  return { group: def.group, version: def.version, kind: def.kind, pruning: def.customResource?.pruning };
}

/** A deep copy with object keys sorted, as Go marshals maps. */
export function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortedCopy(v[k]);
  return out;
}

/**
 * Unknown field paths of `obj`, walking keys in sorted order. `region`: where a built-in
 * kind's `obj` may differ from a decoded object (see ChangedRegion).
 */
export function sortedUnknownFields(t: TypeRef, obj: unknown, region: ChangedRegion = true): string[] {
  if (t.pruning) return t.pruning.unknownFields(obj);
  // The sorted copy only orders what the walk finds: an object with nothing unknown (a
  // patch result, nearly always) is walked as it is, without copying it.
  if (unknownFields(t.group, t.version, t.kind, obj, region).length === 0) return [];
  return unknownFields(t.group, t.version, t.kind, sortedCopy(obj), region);
}

export function documentUnknownFields(t: TypeRef, obj: unknown): string[] {
  if (t.pruning) return t.pruning.unknownFields(obj);
  return unknownFields(t.group, t.version, t.kind, obj);
}

function prune(node: SchemaNode, v: unknown): void {
  if (v === null || typeof v !== 'object') return;
  const c = classify(node);
  if (c.k === 'array') {
    if (Array.isArray(v)) for (const item of v) prune(c.items, item);
  } else if (c.k === 'map') {
    if (!Array.isArray(v)) for (const item of Object.values(v)) prune(c.values, item);
  } else if (c.k === 'struct' && !Array.isArray(v)) {
    const props = c.node.properties ?? {};
    const obj = v as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      if (!Object.prototype.hasOwnProperty.call(props, k)) delete obj[k];
      else prune(props[k], obj[k]);
    }
  }
}

/** Removes, in place, every field the kind does not declare. */
export function dropUnknownFields(t: TypeRef, obj: unknown): void {
  if (t.pruning) { t.pruning.prune(obj); return; }
  const name = definitionNameForGVK(t.group, t.version, t.kind);
  if (name) prune(refNode(name), obj);
}
