// The map-level directives of a strategic merge patch: `$retainKeys` (clear every field
// not listed) and `$setElementOrder/<list>` (the order the merged list must have).
// `$deleteFromPrimitiveList/<list>` is handled where fields are merged.

import type { PatchSchema } from '../../patch-schema.js';
import { type JsonMap, getOwn, goFormat, hasOwn, setOwn } from '../json-value.js';
import { goSliceType, smpErrors } from './errors.js';
import {
  containsDirectiveMarker, extractToDeleteItems, mergeKeyValueEqual, normalizeElementOrder, partitionByPresence,
  sliceElementType,
} from './lists.js';
import { fieldPatchMeta } from './schema.js';
import {
  deleteFromPrimitiveListPrefix, retainKeysDirective, setElementOrderPrefix, takeNewValue,
} from './values.js';

/** The list field a parallel-list directive key refers to (`$prefix/field` → `field`). */
export function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListPrefix) throw smpErrors.badPatchFormatForPrimitiveList();
    if (prefix === setElementOrderPrefix) throw smpErrors.badPatchFormatForSetElementOrderList();
    throw smpErrors.other(`fail to find unknown prefix ${JSON.stringify(prefix)} in ${key}\n`);
  }
  return key.slice(slash + 1);
}

export function applyRetainKeysDirective(original: JsonMap, patch: JsonMap): void {
  if (!hasOwn(patch, retainKeysDirective)) return;
  const list = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(list)) throw smpErrors.badPatchFormatForRetainKeys();
  const keep = new Set<unknown>(list);
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    // Every field the patch sets must be one it retains.
    if (!keep.has(k)) throw smpErrors.badPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) {
    if (!keep.has(k)) delete original[k];
  }
}

// The patch list may only contain items named in the order list, in the same relative order.
function validatePatchWithSetOrderList(patchList: unknown[], setOrderList: unknown[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(patchList).keep : patchList;
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < setOrderList.length) {
    if (containsDirectiveMarker(nonDelete[p])) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[p], setOrderList[s], mergeKey)) p++;
    s++;
  }
  if (p < nonDelete.length && s >= setOrderList.length) {
    throw smpErrors.other(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goFormat(setOrderList)}\n`);
  }
}

export type SliceMerger = (
  original: unknown[], patch: unknown[], meta: ReturnType<typeof fieldPatchMeta>, isDeleteList: boolean,
) => { list: unknown[]; originalView: unknown[] };

/**
 * Processes every `$setElementOrder/<list>` in `patch`: merges the list it names (when
 * both sides have it) and orders the result, removing both keys from `patch`.
 */
export function mergeSetElementOrder(original: JsonMap, patch: JsonMap, schema: PatchSchema | undefined, mergeSlice: SliceMerger): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw smpErrors.badArgType(goSliceType, setOrder);
    const listKey = extractKey(key, setElementOrderPrefix);
    const foundOriginal = hasOwn(original, listKey);
    const foundPatch = hasOwn(patch, listKey);
    const originalList = getOwn(original, listKey);
    const patchList = getOwn(patch, listKey);
    if (foundOriginal && !Array.isArray(originalList)) throw smpErrors.badArgType(goSliceType, originalList);
    if (foundPatch && !Array.isArray(patchList)) throw smpErrors.badArgType(goSliceType, patchList);
    const originalItems = foundOriginal ? (originalList as unknown[]) : [];
    const patchItems = foundPatch ? (patchList as unknown[]) : [];
    const meta = fieldPatchMeta(schema, listKey);
    validatePatchWithSetOrderList(patchItems, setOrder, meta.mergeKey);

    let merged: unknown[];
    // What the live list reads as after merging (see SliceMergeResult.originalView).
    let live = originalItems;
    if (foundOriginal && !foundPatch) merged = originalItems;
    else if (!foundOriginal && foundPatch) merged = takeNewValue(patchItems) as unknown[];
    else if (foundOriginal && foundPatch) ({ list: merged, originalView: live } = mergeSlice(originalItems, patchItems, meta, false));
    else continue;

    const { inPatch, serverOnly } = partitionByPresence(merged, setOrder, meta.mergeKey);
    const kind = sliceElementType(live, patchItems);
    setOwn(original, listKey, normalizeElementOrder(inPatch, serverOnly, setOrder, live, meta.mergeKey, kind));
    delete patch[listKey];
  }
}
