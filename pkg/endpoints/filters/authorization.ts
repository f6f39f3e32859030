import type Koa from 'koa';
import type { UserInfo } from '../../authentication/user.js';
import { forbiddenError } from '../../authorization/forbidden.js';
import type { Attributes, Authorizer } from '../../authorization/interfaces.js';
import type { RequestInfo } from '../request/info.js';

export function attributesFor(user: UserInfo, info: RequestInfo): Attributes {
  return {
    user, verb: info.verb, isResourceRequest: info.isResourceRequest, path: info.path,
    namespace: info.namespace, apiGroup: info.apiGroup, apiVersion: info.apiVersion,
    resource: info.resource, subresource: info.subresource, name: info.name,
  };
}

export function authorizationFilter(authorizer: Authorizer): Koa.Middleware {
  return async (ctx, next) => {
    const attrs = attributesFor(ctx.state.user as UserInfo, ctx.state.requestInfo as RequestInfo);
    const d = await authorizer.authorize(attrs);
    if (d.decision !== 'allow') throw forbiddenError(attrs, d.reason);
    await next();
  };
}
