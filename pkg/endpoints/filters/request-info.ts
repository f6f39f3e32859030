import type Koa from 'koa';
import { parseRequestInfo, type RequestInfo } from '../request/info.js';
import { requestQuery } from '../request/query.js';

const parsedKey = 'requestInfoParsed';

interface Parsed { method: string; url: string; info: RequestInfo }

/**
 * The request's info, parsed once per method and URL: the metrics filter, outside this
 * one, needs it first, and every request would otherwise parse its path twice.
 */
export function parsedRequestInfo(ctx: Koa.Context): RequestInfo {
  const memo = ctx.state[parsedKey] as Parsed | undefined;
  if (memo && memo.method === ctx.method && memo.url === ctx.url) return memo.info;
  const info = parseRequestInfo(ctx.method, ctx.path, requestQuery(ctx));
  ctx.state[parsedKey] = { method: ctx.method, url: ctx.url, info } satisfies Parsed;
  return info;
}

export function requestInfoFilter(): Koa.Middleware {
  return (ctx, next) => {
    ctx.state.requestInfo = parsedRequestInfo(ctx);
    return next();
  };
}
