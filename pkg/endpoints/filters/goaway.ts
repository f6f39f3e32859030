// Upstream's WithProbabilisticGoaway (--goaway-chance). Behind a layer-4 load balancer an
// HTTP/2 client keeps its one connection, and with it its replica, until something ends
// it; answering a small fraction of HTTP/2 requests with a GOAWAY after their response
// makes clients reconnect now and then, so they spread again over replicas that were
// added or restarted. HTTP/1.1 requests are left alone, as upstream leaves them.
import type Koa from 'koa';
import { closeConnectionAfter, isHTTP2 } from '../../util/net/connection.js';

export function goawayFilter(chance: number, random: () => number = Math.random): Koa.Middleware {
  return async (ctx, next) => {
    if (isHTTP2(ctx.req) && random() < chance) closeConnectionAfter(ctx.req, ctx.res);
    await next();
  };
}
