import type Koa from 'koa';
import type { UserInfo } from '../../authentication/user.js';
import { forbiddenError } from '../../authorization/forbidden.js';
import type { Attributes, Authorizer, Decision } from '../../authorization/interfaces.js';
import type { RequestInfo } from '../request/info.js';
import { attributesFor } from '../request/attributes.js';
import { addAuditAnnotation } from './audit-context.js';

export function authorizationFilter(authorizer: Authorizer): Koa.Middleware {
  // The decision's then() rather than an async function's await: one frame less a request.
  return (ctx, next) => {
    const attrs = attributesFor(ctx.state.user as UserInfo, ctx.state.requestInfo as RequestInfo);
    return authorizer.authorize(attrs).then((d) => decided(ctx, next, attrs, d));
  };
}

function decided(ctx: Koa.Context, next: Koa.Next, attrs: Attributes, d: Decision): Promise<void> | undefined {
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
}
