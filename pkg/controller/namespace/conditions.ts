// The status.conditions a terminating namespace reports, as upstream's namespace
// deleter keeps them: each of five types is True with a reason while its problem lasts
// and False with an "ok" reason otherwise; the transition time moves with the status.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { nowTimestamp } from '../../registry/generic/names.js';

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const conditionTypes = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
];

const okReasons: Record<string, string> = {
  NamespaceDeletionDiscoveryFailure: 'ResourcesDiscovered',
  NamespaceDeletionGroupVersionParsingFailure: 'ParsedGroupVersions',
  NamespaceDeletionContentFailure: 'ContentDeleted',
  NamespaceContentRemaining: 'ContentRemoved',
  NamespaceFinalizersRemaining: 'ContentHasNoFinalizers',
};

const okMessages: Record<string, string> = {
  NamespaceDeletionDiscoveryFailure: 'All resources successfully discovered',
  NamespaceDeletionGroupVersionParsingFailure: 'All legacy kube types successfully parsed',
  NamespaceDeletionContentFailure: 'All content successfully deleted, may be waiting on finalization',
  NamespaceContentRemaining: 'All content successfully removed',
  NamespaceFinalizersRemaining: 'All content-preserving finalizers finished',
};

/** What one pass over the namespace's content found. */
export interface ContentReport {
  /** `configmaps.` -> remaining count (group-qualified resource, upstream's odd trailing dot included). */
  remainingByResource: Map<string, number>;
  remainingByFinalizer: Map<string, number>;
  deleteErrors: string[];
}

export function conditionsFor(r: ContentReport): NamespaceCondition[] {
  const now = nowTimestamp();
  const out: NamespaceCondition[] = [];
  if (r.deleteErrors.length > 0) {
    const agg = r.deleteErrors.length === 1 ? r.deleteErrors[0] : `[${r.deleteErrors.join(', ')}]`;
    out.push({ type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: now, reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${r.deleteErrors.length} remaining: ${agg}` });
  }
  const remaining = [...r.remainingByResource].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
  if (remaining.length > 0) {
    out.push({ type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${remaining.join(', ')}` });
  }
  const finalizers = [...r.remainingByFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (finalizers.length > 0) {
    out.push({ type: 'NamespaceFinalizersRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}` });
  }
  return out;
}

/** Brings the namespace's conditions in line with `found`; true when anything changed. */
export function updateConditions(ns: KubeObject, found: NamespaceCondition[]): boolean {
  if (!isPlainObject(ns.status)) ns.status = {};
  const status = ns.status as { conditions?: NamespaceCondition[] };
  status.conditions ??= [];
  let changed = false;
  for (const type of conditionTypes) {
    const next = found.find((c) => c.type === type)
      ?? { type, status: 'False' as const, lastTransitionTime: nowTimestamp(), reason: okReasons[type], message: okMessages[type] };
    const old = status.conditions.find((c) => c.type === type);
    if (!old) {
      status.conditions.push(next);
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = nowTimestamp();
      old.status = next.status;
      old.reason = next.reason;
      old.message = next.message;
      changed = true;
    }
  }
  return changed;
}
