import type Koa from 'koa';
import { parseRequestInfo } from '../request/info.js';

export function requestInfoFilter(): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state.requestInfo = parseRequestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring));
    await next();
  };
}
