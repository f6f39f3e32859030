// Test-only: a replica started with KUBE_APISERVER_TS_TEST_ALTER_ANSWERS=<text> adds a
// label to the JSON object it answers to a GET whose path contains <text>, so that a
// test can play a deliberately different "upstream" to shadow mode. Unset: absent.
import type Koa from 'koa';
import { isPlainObject } from '../../runtime/object.js';

export const alterAnswersEnv = 'KUBE_APISERVER_TS_TEST_ALTER_ANSWERS';

export function alterAnswersFilter(match: string): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method !== 'GET' || !ctx.path.includes(match) || !Buffer.isBuffer(ctx.body)) return;
    if (!String(ctx.response.get('Content-Type')).startsWith('application/json')) return;
    const obj = JSON.parse(ctx.body.toString('utf8')) as Record<string, unknown>;
    if (!isPlainObject(obj.metadata)) return;
    const meta = obj.metadata as Record<string, unknown>;
    meta.labels = { ...(isPlainObject(meta.labels) ? meta.labels : {}), 'shadow-test/altered': 'true' };
    ctx.body = Buffer.from(JSON.stringify(obj));
  };
}
