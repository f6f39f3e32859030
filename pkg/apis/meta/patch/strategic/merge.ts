// The core of the strategic merge (upstream mergeMap / mergeSlice): maps merge key by
// key, lists merge by merge key or as a set when their field says `patchStrategy: merge`
// and are replaced otherwise, `$patch` directives replace or delete maps and list items,
// and `$deleteFromPrimitiveList/<list>` removes scalars. Both arguments are mutated;
// the caller passes copies.

import type { PatchSchema } from '../../patch-schema.js';
import { type JsonMap, goKind, hasOwn, setOwn } from '../json-value.js';
import { smpErrors } from './errors.js';
import { applyRetainKeysDirective, extractKey, mergeSetElementOrder } from './directives.js';
import {
  KeyIndex, deduplicateScalars, deleteFromSlice, findMapByKey, normalizeElementOrder, partitionByPresence, sliceElementType,
} from './lists.js';
import { type FieldPatchMeta, elementKindName, fieldPatchMeta } from './schema.js';
import { decodeLike, deleteFromPrimitiveListPrefix, directiveMarker, takeNewValue } from './values.js';

function handleDirectiveInMergeMap(directive: unknown, patch: JsonMap): JsonMap {
  if (directive === 'replace') {
    delete patch[directiveMarker];
    return decodeLike(patch) as JsonMap;
  }
  if (directive === 'delete') return {};
  throw smpErrors.badPatchType(directive, patch);
}

/** Sets `key` to a value taken from the patch as a whole, or removes it if the value is dropped. */
function takeInto(original: JsonMap, key: string, v: unknown): void {
  const kept = takeNewValue(v);
  if (kept === undefined) delete original[key];
  else setOwn(original, key, kept);
}

export function mergeMap(original: JsonMap, patch: JsonMap, schema: PatchSchema | undefined): JsonMap {
  if (hasOwn(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  applyRetainKeysDirective(original, patch);
  mergeSetElementOrder(original, patch, schema, mergeSliceHandler);

  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    let key = patchKey;
    const isDeleteList = patchKey.startsWith(deleteFromPrimitiveListPrefix);
    if (isDeleteList) key = extractKey(patchKey, deleteFromPrimitiveListPrefix);

    // null deletes; a null for a field the object lacks is simply ignored.
    if (patchV === null) {
      delete original[key];
      continue;
    }
    if (!hasOwn(original, key)) {
      if (!isDeleteList) takeInto(original, key, patchV);
      continue;
    }
    const originalV = original[key];
    const kind = goKind(originalV);
    if (kind !== goKind(patchV)) {
      if (!isDeleteList) takeInto(original, key, patchV);
      continue;
    }
    const meta = fieldPatchMeta(schema, key);
    if (kind === 'map') {
      setOwn(original, key, meta.strategy === 'replace'
        ? decodeLike(patchV)
        : mergeMap(originalV as JsonMap, patchV as JsonMap, meta.schema));
    } else if (kind === 'slice') {
      setOwn(original, key, mergeSliceHandler(originalV as unknown[], patchV as unknown[], meta, isDeleteList).list);
    } else {
      setOwn(original, key, patchV);
    }
  }
  return original;
}

export interface SliceMergeResult {
  list: unknown[];
  /**
   * The live list as upstream's caller sees it afterwards. Upstream deletes items with
   * an in-place append and appends new items into the freed capacity, which rewrites
   * the live slice's backing array; `$setElementOrder` then orders by that rewritten
   * list. Only the first len(live) slots are visible, so the effect does not depend on
   * the slice's capacity.
   */
  originalView: unknown[];
}

export function mergeSliceHandler(original: unknown[], patch: unknown[], meta: FieldPatchMeta, isDeleteList: boolean): SliceMergeResult {
  // Deletion lists apply whatever the field's strategy is.
  if (meta.strategy === 'merge' || isDeleteList) {
    return mergeSlice(original, patch, meta.schema?.items(), meta.mergeKey, isDeleteList);
  }
  return { list: decodeLike(patch) as unknown[], originalView: original };
}

function mergeSlice(original: unknown[], patch: unknown[], elem: PatchSchema | undefined, mergeKey: string, isDeleteList: boolean): SliceMergeResult {
  if (original.length === 0 && patch.length === 0) return { list: original, originalView: original };
  const kind = sliceElementType(original, patch);
  if (kind !== 'map') {
    if (isDeleteList) return { list: deleteFromSlice(original, patch), originalView: original };
    const merged = deduplicateScalars([...original, ...patch]);
    const { inPatch, serverOnly } = partitionByPresence(merged, patch, mergeKey);
    return { list: normalizeElementOrder(inPatch, serverOnly, patch, original, mergeKey, kind), originalView: original };
  }
  if (!mergeKey) throw smpErrors.other(`cannot merge lists without merge key for ${elementKindName(elem)}`);
  const live = new LiveList(original);
  const { base, patchItems } = mergeSpecialElements(live, patch, mergeKey);
  const merged = mergeByKey(live, base, patchItems, mergeKey, elem);
  const { inPatch, serverOnly } = partitionByPresence(merged, patchItems, mergeKey);
  return { list: normalizeElementOrder(inPatch, serverOnly, patchItems, base, mergeKey, kind), originalView: live.view };
}

/** The live list's backing array, rewritten the way upstream's in-place slice operations do. */
class LiveList {
  readonly view: unknown[];
  len: number;

  constructor(original: unknown[]) {
    this.view = [...original];
    this.len = original.length;
  }

  items(): unknown[] {
    return this.view.slice(0, this.len);
  }

  removeAt(i: number): void {
    for (let j = i; j < this.len - 1; j++) this.view[j] = this.view[j + 1];
    this.len--;
  }

  /** An append lands in the backing array while there is room left by deletions. */
  append(v: unknown): void {
    if (this.len < this.view.length) this.view[this.len++] = v;
  }
}

// Applies `$patch` items of a merging list: `delete` removes matching live items,
// `replace` makes the list exactly the other patch items.
function mergeSpecialElements(live: LiveList, patch: unknown[], mergeKey: string): { base: unknown[]; patchItems: unknown[] } {
  const plain: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const item = v as JsonMap;
    if (!hasOwn(item, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = item[directiveMarker];
    if (directive === 'delete') {
      if (!hasOwn(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
      for (let i = findMapByKey(live.items(), mergeKey, item[mergeKey]); i >= 0; i = findMapByKey(live.items(), mergeKey, item[mergeKey])) {
        live.removeAt(i);
      }
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw smpErrors.other('merging lists cannot yet be specified in the patch');
    } else {
      throw smpErrors.badPatchType(directive, item);
    }
  }
  if (replace) {
    // The replacement list is a new slice; later appends no longer touch the live one.
    live.len = live.view.length;
    return { base: plain.map(decodeLike), patchItems: [] };
  }
  return { base: live.items(), patchItems: plain };
}

function mergeByKey(live: LiveList, base: unknown[], patch: unknown[], mergeKey: string, elem: PatchSchema | undefined): unknown[] {
  const out = [...base];
  const index = new KeyIndex(out, mergeKey);
  for (const v of patch) {
    const item = v as JsonMap;
    if (!hasOwn(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    const i = index.find(item[mergeKey]);
    if (i >= 0) {
      out[i] = mergeMap(out[i] as JsonMap, item, elem);
    } else {
      const added = decodeLike(item) as JsonMap;
      out.push(added);
      index.add(added, out.length - 1);
      live.append(added);
    }
  }
  return out;
}
