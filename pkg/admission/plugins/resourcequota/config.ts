// The plugin's configuration (ResourceQuotaConfiguration in apiserver.config.k8s.io/v1,
// or Configuration in resourcequota.admission.k8s.io/v1beta1): resources whose
// consumption needs a covering quota even when no quota names them.
import { isPlainObject } from '../../../runtime/object.js';
import type { ScopeOperator, ScopeSelector } from '../../../quota/evaluator/interfaces.js';

export interface LimitedResource {
  apiGroup: string;
  resource: string;
  matchContains?: string[];
  matchScopes?: ScopeSelector[];
}

export function parseQuotaConfiguration(v: unknown): LimitedResource[] {
  const cfg = isPlainObject(v) ? v : {};
  const list = Array.isArray(cfg.limitedResources) ? cfg.limitedResources : [];
  return list.filter(isPlainObject).map((l) => ({
    apiGroup: typeof l.apiGroup === 'string' ? l.apiGroup : '',
    resource: String(l.resource ?? ''),
    matchContains: Array.isArray(l.matchContains) ? l.matchContains.map(String) : [],
    matchScopes: Array.isArray(l.matchScopes)
      ? (l.matchScopes as Array<Record<string, unknown>>).map((s) => ({
        scopeName: String(s.scopeName ?? ''), operator: String(s.operator ?? '') as ScopeOperator,
        values: Array.isArray(s.values) ? s.values.map(String) : undefined,
      }))
      : [],
  }));
}
