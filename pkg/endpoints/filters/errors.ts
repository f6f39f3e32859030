// The one place where thrown errors become HTTP responses: a StatusError becomes its
// Status body and code; anything else is a 500 InternalError that is logged, never a
// crash and never a hang.
import type Koa from 'koa';
import type { Logger } from 'pino';
import { errors, StatusError } from '../../runtime/errors.js';

export function errorFilter(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      let se: StatusError;
      if (err instanceof StatusError) se = err;
      else {
        log.error({ err, path: ctx.path, method: ctx.method }, 'internal error serving request');
        se = errors.internal(err);
      }
      ctx.status = se.code;
      for (const [k, v] of Object.entries(se.headers)) ctx.set(k, v);
      ctx.type = 'application/json';
      ctx.body = `${JSON.stringify(se.toStatus())}\n`;
      ctx.state.error = se;
    }
  };
}
