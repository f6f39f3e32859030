// Fields of a body that a built-in kind does not declare, with paths printed the way
// upstream's strict decoder prints them (`spec.foo`, `rules[0].foo`, `data.key.foo`).
import type { StatusError } from '../runtime/errors.js';
import { type ChangedRegion, regionAt } from '../runtime/changed-region.js';
import { classify } from './go-types.js';
import { definitionNameForGVK, refNode } from './schema.js';
import { decodeFailure } from './type-check.js';
import type { SchemaNode } from './types.js';

/** A field's path, from its keys (map keys and field names) and list indices (numbers). */
export type Segments = Array<string | number>;

/** Printed as upstream's strict decoder prints it: `spec.foo`, `rules[0].foo`, `data.key.foo`. */
export function pathOf(segments: Segments): string {
  let out = '';
  for (const s of segments) out = typeof s === 'number' ? `${out}[${s}]` : out ? `${out}.${s}` : s;
  return out;
}

// The path is kept as segments and printed only for a field reported: a body is walked
// on every write, and nearly always holds nothing unknown. Only `region` is walked: what
// lies outside it was decoded before, which kept no unknown field.
function walk(node: SchemaNode, v: unknown, path: Segments, out: string[], region: ChangedRegion): void {
  if (v === null || typeof v !== 'object') return;
  const c = classify(node);
  switch (c.k) {
    case 'array':
      if (!Array.isArray(v)) return;
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(c.items, v[i], path, out, true);
        path.pop();
      }
      return;
    case 'map': {
      if (Array.isArray(v)) return;
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const r = regionAt(region, key);
        if (r === undefined) continue;
        path.push(key);
        walk(c.values, obj[key], path, out, r);
        path.pop();
      }
      return;
    }
    case 'struct': {
      if (Array.isArray(v)) return;
      const props = c.node.properties ?? {};
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const r = regionAt(region, key);
        if (r === undefined) continue;
        path.push(key);
        if (!Object.prototype.hasOwnProperty.call(props, key)) out.push(pathOf(path));
        else walk(props[key], obj[key], path, out, r);
        path.pop();
      }
      return;
    }
    default:
      // Scalars, free-form objects and preserve-unknown-fields nodes hold no unknown fields.
      return;
  }
}

/**
 * Paths of fields `obj` carries that the kind does not declare; [] for kinds without a schema.
 * `region`: where `obj` may differ from a decoded object (see ChangedRegion).
 */
export function unknownFields(group: string, version: string, kind: string, obj: unknown, region: ChangedRegion = true): string[] {
  const name = definitionNameForGVK(group, version, kind);
  if (!name) return [];
  return unknownFieldsOf(name, obj, region);
}

export function unknownFieldsOf(definitionName: string, obj: unknown, region: ChangedRegion = true): string[] {
  const out: string[] = [];
  walk(refNode(definitionName), obj, [], out, region);
  return out;
}

/** `unknown field "spec.foo"`: the text of one strict-decoding error (also the Warn-mode warning). */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/**
 * fieldValidation=Strict on create/update: 400 with every strict error in one message,
 * `ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "foo"`.
 */
export function strictDecodingFailure(version: string, kind: string, messages: string[]): StatusError {
  return decodeFailure(version, kind, `strict decoding error: ${messages.join(', ')}`);
}
