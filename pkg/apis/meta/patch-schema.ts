// What merge algorithms need to know about one node of a type's schema. Strategic merge
// patch (and later server-side apply) walk objects with this; the generated schema
// module provides it for built-in types; unknown types get `undefined` (atomic lists,
// granular maps), as upstream treats unstructured objects.
export interface PatchSchema {
  /** Schema of a named field of an object node. */
  field(name: string): PatchSchema | undefined;
  /** Schema of list items (for arrays) or of map values (for string-keyed maps). */
  items(): PatchSchema | undefined;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  /** `x-kubernetes-patch-strategy`, e.g. "merge", "retainKeys", "merge,retainKeys", "replace". */
  patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`. */
  patchMergeKey?: string;
  /** `x-kubernetes-list-type`: atomic | set | map. */
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  /** `x-kubernetes-map-type`: atomic | granular. */
  mapType?: 'atomic' | 'granular';
  /** True for an object node with declared properties (a struct, not a map). */
  isStruct?: boolean;
}
