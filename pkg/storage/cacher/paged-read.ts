// One page of a watch cache's objects as they were at an earlier revision, so continue
// pages are served from memory and still form one snapshot at the first page's revision
// (as upstream reads them from etcd at the token's revision). The cache holds the
// present; the ring holds every event since the revision asked for, each with the value
// its key had before it, so the state at that revision is the present with those keys
// rolled back.
import type { KubeObject } from '../../runtime/object.js';
import type { KeyOrder } from './sorted-keys.js';
import { thawed, type Version } from './cold-version.js';

/** The present, and for every key changed after the revision asked for, its value then (undefined: absent). */
export interface HistoryView {
  /** Present keys in etcd (byte) order: the cache's own, so read before its next event. */
  keys: KeyOrder;
  objects: ReadonlyMap<string, KubeObject>;
  then: ReadonlyMap<string, Version | undefined>;
}

export interface PageAt {
  items: KubeObject[];
  /** The last key read, when the page stopped at its limit. */
  lastKey?: string;
  /** Keys after lastKey at that revision (0 when the page ends the list). */
  remaining: number;
  /** Keys read from `start`, matching or not (with `remaining`, every key from `start` when the page ends the list). */
  read: number;
}

/**
 * Up to `limit` objects that pass `predicate`, from key `start` to the end of `prefix`
 * (which ends in '/'), at the view's revision. As an etcd read: keys that fail the
 * predicate are read past; the page stops at the limit-th match.
 */
export function readPageAt(view: HistoryView, prefix: string, start: string, limit: number,
  predicate?: (obj: KubeObject) => boolean): PageAt {
  // Our keys are ASCII: the prefix's range ends where its last character is one higher.
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const changed = [...view.then.keys()].filter((k) => k >= start && k < end).sort();
  const items: KubeObject[] = [];
  let i = view.keys.lowerBound(start);
  const stop = view.keys.lowerBound(end);
  let j = 0;
  let lastKey: string | undefined;
  let read = 0;
  while ((i < stop || j < changed.length) && items.length < limit) {
    const present = i < stop ? view.keys.at(i) : undefined;
    const rolledBack = j < changed.length ? changed[j] : undefined;
    let obj: KubeObject | undefined;
    if (rolledBack !== undefined && (present === undefined || rolledBack <= present)) {
      obj = thawed(view.then.get(rolledBack));
      lastKey = rolledBack;
      j++;
      if (present === rolledBack) i++;
    } else {
      obj = view.objects.get(present!);
      lastKey = present;
      i++;
    }
    if (obj) read++;
    if (obj && (!predicate || predicate(obj))) items.push(obj);
  }
  if (items.length < limit) return { items, remaining: 0, read };
  // Keys after lastKey then: the present ones, corrected for those changed since.
  let remaining = stop - i;
  for (; j < changed.length; j++) {
    remaining += (view.then.get(changed[j]) ? 1 : 0) - (view.objects.has(changed[j]) ? 1 : 0);
  }
  return { items, lastKey, remaining, read };
}
