// Managed fields entries compared without their times, for upstream's rule that an update
// changing nothing but those times is not written (IgnoreManagedFieldsTimestampsTransformer).
import { deepEqual } from '../../../util/deep-equal.js';
import type { ManagedFieldsEntry } from '../../../runtime/object.js';

/**
 * Whether `next` is `old` entry for entry but for some times: the same count (an entry
 * added or dropped is a change of ownership, kept even when no value changed), at least
 * one, and at least one time moved.
 */
export function onlyTimesDiffer(next: ManagedFieldsEntry[] | undefined, old: ManagedFieldsEntry[] | undefined): boolean {
  if (!next || !old || next.length !== old.length || next.length === 0) return false;
  let moved = false;
  for (let i = 0; i < next.length; i++) {
    if ((next[i]!.time ?? undefined) !== (old[i]!.time ?? undefined)) moved = true;
  }
  return moved && next.every((e, i) => sameButTime(e, old[i]!));
}

/** `next`'s entries with the times of `old`'s (entry for entry, as onlyTimesDiffer matched them). */
export function withTimesOf(next: ManagedFieldsEntry[], old: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return next.map((e, i) => ({ ...e, time: old[i]!.time }));
}

function sameButTime(a: ManagedFieldsEntry, b: ManagedFieldsEntry): boolean {
  return a.manager === b.manager && a.operation === b.operation && a.apiVersion === b.apiVersion
    && a.fieldsType === b.fieldsType && (a.subresource ?? '') === (b.subresource ?? '') && deepEqual(a.fieldsV1, b.fieldsV1);
}
