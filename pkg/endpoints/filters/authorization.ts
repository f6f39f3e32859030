import type Koa from 'koa';
import type { UserInfo } from '../../authentication/user.js';
import { forbiddenError } from '../../authorization/forbidden.js';
import type { Authorizer } from '../../authorization/interfaces.js';
import type { RequestInfo } from '../request/info.js';
import { attributesFor } from '../request/attributes.js';
import { addAuditAnnotation } from './audit-context.js';

export function authorizationFilter(authorizer: Authorizer): Koa.Middleware {
  return async (ctx, next) => {
    const attrs = attributesFor(ctx.state.user as UserInfo, ctx.state.requestInfo as RequestInfo);
    const d = await authorizer.authorize(attrs);
    addAuditAnnotation(ctx, 'authorization.k8s.io/decision', d.decision === 'allow' ? 'allow' : 'forbid');
    addAuditAnnotation(ctx, 'authorization.k8s.io/reason', d.reason ?? '');
    // An authorizer may report errors and still allow (RBAC with a dangling binding).
    if (d.decision === 'allow') return next();
    if (d.error) {
      // Upstream answers an authorizer failure with a plain-text 500, not a Status.
      ctx.status = 500;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Internal Server Error: ${JSON.stringify(ctx.originalUrl)}: ${d.error}\n`;
      return;
    }
    throw forbiddenError(attrs, d.reason);
  };
}
