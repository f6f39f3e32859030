// The deletion rules of upstream's generic registry: preconditions checked before a
// delete, and the garbage-collection finalizers (orphan, foregroundDeletion) that the
// propagation policy asks for.
import { errors } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { StoreDef } from './store-def.js';
import type { Preconditions } from '../../storage/interfaces.js';

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  preconditions?: Preconditions;
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  /** Deprecated: true means Orphan, false means cascade. */
  orphanDependents?: boolean;
}

/**
 * Upstream's BeforeDelete precondition check. Its conflict names the kind, not the
 * resource ("Operation cannot be fulfilled on ConfigMap ...").
 */
export function checkDeletePreconditions(def: StoreDef, obj: KubeObject, p: Preconditions | undefined): void {
  if (!p) return;
  const gk = { group: def.group, resource: def.kind };
  const name = obj.metadata.name ?? '';
  if (p.uid && p.uid !== obj.metadata.uid) {
    throw errors.conflict(gk, name, `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (p.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw errors.conflict(gk, name, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`);
  }
}

function shouldOrphan(finalizers: string[], o: DeleteOptions): boolean {
  if (o.orphanDependents !== undefined) return o.orphanDependents;
  if (o.propagationPolicy) return o.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === FinalizerOrphanDependents) return true;
    if (f === FinalizerDeleteDependents) return false;
  }
  // Every resource served here defaults to deleting dependents in the background.
  return false;
}

function shouldDeleteInForeground(finalizers: string[], o: DeleteOptions): boolean {
  if (o.orphanDependents !== undefined) return false;
  if (o.propagationPolicy) return o.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FinalizerDeleteDependents) return true;
    if (f === FinalizerOrphanDependents) return false;
  }
  return false;
}

/**
 * The finalizers a delete with these options leaves on the object: the GC ones are
 * replaced by what the options ask for. Undefined when nothing changes.
 */
export function finalizersForDeletion(current: string[] | undefined, o: DeleteOptions): string[] | undefined {
  const before = current ?? [];
  const next = before.filter((f) => f !== FinalizerOrphanDependents && f !== FinalizerDeleteDependents);
  if (shouldOrphan(before, o)) next.push(FinalizerOrphanDependents);
  if (shouldDeleteInForeground(before, o)) next.push(FinalizerDeleteDependents);
  const a = new Set(before);
  const b = new Set(next);
  const same = a.size === b.size && [...a].every((f) => b.has(f));
  return same ? undefined : next;
}

/** Upstream's markAsDeleting: timestamp (kept if already set), zero grace, generation bump. */
export function markAsDeleting(obj: KubeObject, now: string): void {
  const m = obj.metadata;
  if (!m.deletionTimestamp && (m.generation ?? 0) > 0) m.generation = (m.generation ?? 0) + 1;
  if (!m.deletionTimestamp) m.deletionTimestamp = now;
  m.deletionGracePeriodSeconds = 0;
}

/** An update that leaves a terminating object without finalizers deletes it (ShouldDeleteDuringUpdate). */
export function shouldDeleteDuringUpdate(obj: KubeObject, old: KubeObject): boolean {
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if (!old.metadata.deletionTimestamp) return false;
  const grace = old.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === 0;
}
