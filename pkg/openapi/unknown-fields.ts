// Fields of a body that a built-in kind does not declare, with paths printed the way
// upstream's strict decoder prints them (`spec.foo`, `rules[0].foo`, `data.key.foo`).
import type { StatusError } from '../runtime/errors.js';
import { classify } from './go-types.js';
import { definitionNameForGVK } from './schema.js';
import { decodeFailure } from './type-check.js';
import type { SchemaNode } from './types.js';

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

function walk(node: SchemaNode, v: unknown, path: string, out: string[]): void {
  if (v === null || typeof v !== 'object') return;
  const c = classify(node);
  switch (c.k) {
    case 'array':
      if (!Array.isArray(v)) return;
      v.forEach((item, i) => walk(c.items, item, `${path}[${i}]`, out));
      return;
    case 'map':
      if (Array.isArray(v)) return;
      for (const [key, item] of Object.entries(v)) walk(c.values, item, join(path, key), out);
      return;
    case 'struct': {
      if (Array.isArray(v)) return;
      const props = c.node.properties ?? {};
      for (const [key, item] of Object.entries(v)) {
        if (!Object.prototype.hasOwnProperty.call(props, key)) out.push(join(path, key));
        else walk(props[key], item, join(path, key), out);
      }
      return;
    }
    default:
      // Scalars, free-form objects and preserve-unknown-fields nodes hold no unknown fields.
      return;
  }
}

/** Paths of fields `obj` carries that the kind does not declare; [] for kinds without a schema. */
export function unknownFields(group: string, version: string, kind: string, obj: unknown): string[] {
  const name = definitionNameForGVK(group, version, kind);
  if (!name) return [];
  return unknownFieldsOf(name, obj);
}

export function unknownFieldsOf(definitionName: string, obj: unknown): string[] {
  const out: string[] = [];
  walk({ $ref: definitionName }, obj, '', out);
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
