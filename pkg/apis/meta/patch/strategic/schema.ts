// Reading patch metadata (strategy, merge key) from a PatchSchema. With no schema, or no
// entry for a field, there is no strategy: maps merge and lists are replaced, which is
// how upstream treats data it has no type information for.

import type { PatchSchema } from '../../patch-schema.js';
import { goFormat } from '../json-value.js';
import { smpErrors } from './errors.js';

/** Schema of a field of an object node, or of the values of a string-keyed map. */
export function fieldSchema(schema: PatchSchema | undefined, key: string): PatchSchema | undefined {
  if (!schema) return undefined;
  const f = schema.field(key);
  if (f) return f;
  return schema.isStruct ? undefined : schema.items();
}

export interface FieldPatchMeta {
  /** The field's own schema (a map or list node). */
  schema: PatchSchema | undefined;
  /** The strategy besides retainKeys: 'merge', 'replace' or ''. */
  strategy: string;
  retainKeys: boolean;
  mergeKey: string;
}

/** Upstream extractRetainKeysPatchStrategy over a comma-separated strategy tag. */
function splitStrategy(tag: string | undefined): { retainKeys: boolean; strategy: string } {
  const parts = tag ? tag.split(',') : [];
  if (parts.length === 0) return { retainKeys: false, strategy: '' };
  if (parts.length === 1) return parts[0] === 'retainKeys' ? { retainKeys: true, strategy: '' } : { retainKeys: false, strategy: parts[0] };
  if (parts.length === 2) {
    if (parts[0] === 'retainKeys') return { retainKeys: true, strategy: parts[1] };
    if (parts[1] === 'retainKeys') return { retainKeys: true, strategy: parts[0] };
  }
  throw smpErrors.other(`unexpected patch strategy: ${goFormat(parts)}`);
}

export function fieldPatchMeta(parent: PatchSchema | undefined, key: string): FieldPatchMeta {
  const schema = fieldSchema(parent, key);
  return { schema, ...splitStrategy(schema?.patchStrategy), mergeKey: schema?.patchMergeKey ?? '' };
}

/** How upstream names the element type in "cannot merge lists without merge key for ...". */
export function elementKindName(elem: PatchSchema | undefined): string {
  if (!elem || elem.isStruct) return 'struct';
  return elem.type === 'object' ? 'map' : (elem.type ?? 'interface');
}
