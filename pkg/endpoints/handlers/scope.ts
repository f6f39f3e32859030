// Everything a verb handler needs about one request, assembled by the installer.
import type Koa from 'koa';
import type { Admission } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { GenericStore, RequestScope } from '../../registry/generic/store.js';
import type { RequestInfo } from '../request/info.js';
import { auditAnnotationsOf } from '../filters/audit-context.js';

export interface HandlerScope {
  ctx: Koa.Context;
  info: RequestInfo;
  def: ResourceDef;
  store: GenericStore;
  user: UserInfo;
  admission: Admission;
  query: URLSearchParams;
}

export function requestScope(h: HandlerScope, dryRun: boolean): RequestScope {
  return {
    user: h.user, dryRun, admission: h.admission, subresource: h.info.subresource || undefined,
    auditAnnotations: auditAnnotationsOf(h.ctx),
  };
}
