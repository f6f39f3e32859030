// A ResourceQuota as quota reads it: hard limits and usage from its status, and its
// scopes (spec.scopes as Exists selectors, then spec.scopeSelector's expressions).
import { isPlainObject, type KubeObject } from '../runtime/object.js';
import type { Evaluator, ScopeOperator, ScopeSelector } from './evaluator/interfaces.js';
import { parseResourceList, type ResourceList } from './resources.js';

export interface QuotaView {
  name: string;
  namespace: string;
  resourceVersion: string;
  hard: ResourceList;
  used: ResourceList;
  selectors: ScopeSelector[];
  /** The object read, for writing status back. */
  object: KubeObject;
}

export function scopeSelectorsOf(quota: KubeObject): ScopeSelector[] {
  const spec = isPlainObject(quota.spec) ? quota.spec : {};
  const out: ScopeSelector[] = [];
  if (Array.isArray(spec.scopes)) for (const s of spec.scopes) out.push({ scopeName: String(s), operator: 'Exists' });
  const sel = isPlainObject(spec.scopeSelector) ? spec.scopeSelector : {};
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions as Array<{ scopeName?: string; operator?: string; values?: string[] }>) {
      out.push({ scopeName: e.scopeName ?? '', operator: (e.operator ?? '') as ScopeOperator, values: e.values });
    }
  }
  return out;
}

/** The limits a quota enforces: its status.hard (the controller copies spec.hard there). */
export function enforcedHard(quota: KubeObject): ResourceList {
  return parseResourceList(isPlainObject(quota.status) ? quota.status.hard : undefined);
}

export function quotaView(quota: KubeObject): QuotaView {
  const status = isPlainObject(quota.status) ? quota.status : {};
  return {
    name: quota.metadata.name ?? '',
    namespace: quota.metadata.namespace ?? '',
    resourceVersion: quota.metadata.resourceVersion ?? '',
    hard: enforcedHard(quota),
    used: parseResourceList(status.used),
    selectors: scopeSelectorsOf(quota),
    object: quota,
  };
}

/** Upstream's generic Matches: the quota limits something the evaluator measures, and the object is in every scope. */
export function quotaMatches(q: Pick<QuotaView, 'hard' | 'selectors'>, e: Evaluator, obj: KubeObject): boolean {
  if (e.matchingResources([...q.hard.keys()]).length === 0) return false;
  return q.selectors.every((s) => e.matchesScope(s, obj));
}
