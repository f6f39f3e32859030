// List helpers of the strategic merge: element typing, lookups by merge key, and the
// ordering rules (patch order wins for patched items, live order for server-only items,
// the two interleaved by live position). Kept step-for-step with upstream so that
// ordering and failures come out the same.

import { type GoKind, type JsonMap, getOwn, goFormat, goKind, hasOwn, isMap } from '../json-value.js';
import { directiveMarker } from './values.js';
import { goMapType, smpErrors } from './errors.js';

/** The common Go type of all elements; errors for mixed types, lists of lists, or no elements. */
export function sliceElementType(...slices: unknown[][]): GoKind {
  let prev: GoKind | undefined;
  for (const s of slices) {
    for (const v of s) {
      const cur = goKind(v);
      if (prev === undefined) {
        prev = cur;
        if (prev === 'slice') throw smpErrors.noListOfLists();
      } else if (prev !== cur) {
        throw smpErrors.other(`list element types are not identical: ${goFormat(slices)}`);
      }
    }
  }
  if (prev === undefined) throw smpErrors.other('no elements in any of the given slices');
  return prev;
}

/** Upstream's in-place deduplication (it swaps from the end, so order changes). */
export function deduplicateScalars(input: unknown[]): unknown[] {
  const s = [...input];
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

export function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const del = new Set(toDelete);
  return current.filter((v) => !del.has(v));
}

/** Index of the first map whose merge key equals `value`; every element must be a map. */
export function findMapByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!isMap(m)) throw smpErrors.other(`value for key ${i} is not a map.`);
    if (hasOwn(m, key) && m[key] === value) return i;
  }
  return -1;
}

export function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  if (!isMap(left)) throw smpErrors.badArgType(goMapType, left);
  if (!isMap(right)) throw smpErrors.badArgType(goMapType, right);
  if (!hasOwn(left, mergeKey)) throw smpErrors.noMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw smpErrors.noMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

export function containsDirectiveMarker(item: unknown): boolean {
  return isMap(item) && hasOwn(item, directiveMarker);
}

/** Splits list items into those kept and those carrying `$patch: delete`. */
export function extractToDeleteItems(list: unknown[]): { keep: unknown[]; toDelete: unknown[] } {
  const keep: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw smpErrors.badArgType(goMapType, v);
    if (hasOwn(v, directiveMarker) && v[directiveMarker] === 'delete') toDelete.push(v);
    else keep.push(v);
  }
  return { keep, toDelete };
}

function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw smpErrors.badArgType(goMapType, item);
      if (!hasOwn(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    }
  }
}

/** Positions in a list, compared by merge-key value for maps and by value otherwise. */
class OrderIndex {
  private readonly first = new Map<unknown, number>();

  constructor(list: unknown[], private readonly mergeKey: string, private readonly kind: GoKind) {
    list.forEach((item, i) => {
      const k = this.keyOf(item);
      if (!this.first.has(k)) this.first.set(k, i);
    });
  }

  // Upstream reads a missing merge key as nil, which equals any other nil.
  private keyOf(item: unknown): unknown {
    if (this.kind !== 'map') return item;
    return isMap(item) ? (getOwn(item, this.mergeKey) ?? null) : null;
  }

  indexOf(v: unknown): number {
    return this.first.get(this.keyOf(v)) ?? -1;
  }
}

// Go's sort.SliceStable is an insertion sort on small inputs; using the same loop keeps
// results identical when the comparison is not a strict order.
function insertionSort(items: unknown[], less: (a: unknown, b: unknown) => boolean): void {
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) {
      const t = items[j];
      items[j] = items[j - 1];
      items[j - 1] = t;
    }
  }
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  let items = [...toSort];
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order);
    ({ keep: items, toDelete } = extractToDeleteItems(items));
  }
  const index = new OrderIndex(order, mergeKey, kind);
  if (items.every((v) => index.indexOf(v) >= 0)) {
    // Every item has a position: a strict order, so any stable sort agrees with upstream's.
    items.sort((a, b) => index.indexOf(a) - index.indexOf(b));
  } else {
    insertionSort(items, (a, b) => {
      const ia = index.indexOf(a);
      if (ia >= 0) {
        const ib = index.indexOf(b);
        if (ib >= 0) return ia < ib;
      }
      return true;
    });
  }
  return [...items, ...toDelete];
}

// Inserts each server-only item (left) into the patch items (right), before the first
// patch item that comes later in the live list; relative orders of both sides are kept.
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  const index = new OrderIndex(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = index.indexOf(left[i]);
      const ri = index.indexOf(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

export function normalizeElementOrder(
  patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: GoKind,
): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/**
 * Finds maps by merge-key value in one fixed list, as repeated findMapByKey calls would,
 * including failing when a non-map comes before the match.
 */
export class KeyIndex {
  private readonly first = new Map<unknown, number>();
  private readonly firstNonMap: number;

  constructor(list: unknown[], private readonly key: string) {
    let nonMap = -1;
    list.forEach((m, i) => {
      if (!isMap(m)) {
        if (nonMap < 0) nonMap = i;
      } else if (hasOwn(m, key) && !this.first.has(m[key])) {
        this.first.set(m[key], i);
      }
    });
    this.firstNonMap = nonMap;
  }

  find(value: unknown): number {
    const i = this.first.get(value) ?? -1;
    if (this.firstNonMap >= 0 && (i < 0 || this.firstNonMap < i)) throw smpErrors.other(`value for key ${this.firstNonMap} is not a map.`);
    return i;
  }

  add(m: JsonMap, i: number): void {
    if (hasOwn(m, this.key) && !this.first.has(m[this.key])) this.first.set(m[this.key], i);
  }
}

/** Splits `list` into items present in `by` and the rest, keeping order. */
export function partitionByPresence(list: unknown[], by: unknown[], mergeKey: string): { inPatch: unknown[]; serverOnly: unknown[] } {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  if (!mergeKey) {
    const present = new Set(by);
    for (const v of list) (present.has(v) ? inPatch : serverOnly).push(v);
    return { inPatch, serverOnly };
  }
  const index = new KeyIndex(by, mergeKey);
  for (const v of list) {
    if (!isMap(v)) throw smpErrors.badArgType(goMapType, v);
    if (!hasOwn(v, mergeKey)) throw smpErrors.noMergeKey(v, mergeKey);
    (index.find(v[mergeKey]) >= 0 ? inPatch : serverOnly).push(v);
  }
  return { inPatch, serverOnly };
}
