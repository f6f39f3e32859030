// How server-side apply sees one node of an object, from the same schema markers the
// OpenAPI documents publish (pkg/openapi/patch-schema.ts): structs and maps (granular
// or atomic), lists (atomic, set, or map keyed by fields) and scalars. Nodes without a
// schema are deduced from the value: objects are granular maps, lists are atomic.
import type { PatchSchema } from '../../../apis/meta/patch-schema.js';
import { isPlainObject } from '../../../runtime/object.js';

export type Shape =
  | { k: 'scalar' }
  | { k: 'struct'; atomic: boolean; schema: PatchSchema }
  | { k: 'map'; atomic: boolean; value: PatchSchema | undefined }
  | { k: 'list'; rel: 'atomic' | 'set' | 'map'; keys: string[]; item: PatchSchema | undefined };

const scalar: Shape = { k: 'scalar' };
const untypedMap: Shape = { k: 'map', atomic: false, value: undefined };
const atomicList: Shape = { k: 'list', rel: 'atomic', keys: [], item: undefined };

function listShape(s: PatchSchema): Shape {
  const item = s.items();
  if (s.listType === 'atomic') return { k: 'list', rel: 'atomic', keys: [], item };
  if (s.listType === 'set') return { k: 'list', rel: 'set', keys: [], item };
  if (s.listType === 'map') return { k: 'list', rel: 'map', keys: s.listMapKeys ?? [], item };
  // Without a list type, patchStrategy=merge means map (keyed by patchMergeKey) or set.
  if ((s.patchStrategy ?? '').split(',').includes('merge')) {
    return s.patchMergeKey ? { k: 'list', rel: 'map', keys: [s.patchMergeKey], item } : { k: 'list', rel: 'set', keys: [], item };
  }
  return { k: 'list', rel: 'atomic', keys: [], item };
}

/** The shape of a node; `sample` decides where the schema says nothing. */
export function shapeOf(s: PatchSchema | undefined, sample: unknown): Shape {
  if (s) {
    if (s.type === 'array') return listShape(s);
    if (s.isStruct) return { k: 'struct', atomic: s.mapType === 'atomic', schema: s };
    // An object with neither properties nor a value schema (RawExtension) is one atomic value.
    if (s.type === 'object') {
      const value = s.items();
      return { k: 'map', atomic: s.mapType === 'atomic' || value === undefined, value };
    }
    if (s.type !== undefined) return scalar;
  }
  if (isPlainObject(sample)) return untypedMap;
  if (Array.isArray(sample)) return atomicList;
  return scalar;
}

/** Schema of a struct field or map value. */
export function childSchema(sh: Shape, name: string): PatchSchema | undefined {
  if (sh.k === 'struct') return sh.schema.field(name);
  if (sh.k === 'map') return sh.value;
  return undefined;
}

/** Whether `name` is a declared field of a struct node (not a map key). */
export function isNamedField(sh: Shape, name: string): boolean {
  return sh.k === 'struct' && sh.schema.field(name) !== undefined;
}

export function isGranular(sh: Shape): boolean {
  if (sh.k === 'scalar') return false;
  if (sh.k === 'list') return sh.rel !== 'atomic';
  return !sh.atomic;
}
