// A request for a deprecated API version: the Warning header clients print, the audit
// annotations and the apiserver_requested_deprecated_apis gauge operators alert on
// before an upgrade removes the version (upstream's deprecation filter).
import type Koa from 'koa';
import type { ResourceDef } from '../registry/rest/resource.js';
import { apiserverMetrics } from './metrics/metrics.js';
import { addWarnings } from './fieldvalidation/warnings.js';
import { addAuditAnnotation } from './filters/audit-context.js';

export function recordDeprecatedRequest(ctx: Koa.Context, def: ResourceDef, subresource: string): void {
  if (!def.deprecationWarning) return;
  addWarnings(ctx, [def.deprecationWarning]);
  addAuditAnnotation(ctx, 'k8s.io/deprecated', 'true');
  if (def.removedRelease) addAuditAnnotation(ctx, 'k8s.io/removed-release', def.removedRelease);
  apiserverMetrics().requestedDeprecatedApis.set({
    group: def.group, version: def.version, resource: def.plural, subresource, removed_release: def.removedRelease ?? '',
  }, 1);
}
