// Upstream's WithRequestDeadline and timeout filter: a request that is not long-running
// gets --request-timeout, or less when the client's `timeout` query parameter asks for
// less; past it the client gets a 504 Timeout while the work it started finishes
// unobserved. Also hands the handlers --max-request-body-bytes.
import type Koa from 'koa';
import { errors } from '../../runtime/errors.js';
import { parseGoDuration } from '../../runtime/serializer/protobuf/gotime.js';
import type { RequestInfo } from '../request/info.js';
import { isLongRunning } from '../request/long-running.js';
import { requestQuery } from '../request/query.js';

export interface RequestLimits {
  requestTimeoutMs: number;
  maxRequestBodyBytes: number;
}

/** The timer's end: the abandoned work may still fail, which must not surface as an unhandled rejection. */
function expire(work: Promise<unknown>, reject: (err: unknown) => void): void {
  work.catch(() => undefined);
  reject(errors.timeout('request did not complete within requested timeout - context deadline exceeded'));
}

export function requestDeadlineFilter(limits: RequestLimits): Koa.Middleware {
  // Not an async function: the chain's promise is settled by whichever comes first, the
  // work or the timer, without an async frame and an await on every request.
  return (ctx, next) => {
    ctx.state.maxRequestBodyBytes = limits.maxRequestBodyBytes;
    const info = ctx.state.requestInfo as RequestInfo | undefined;
    if (!info || isLongRunning(info)) return next();
    let timeoutMs = limits.requestTimeoutMs;
    const asked = requestQuery(ctx).get('timeout');
    if (asked) {
      const nanos = parseGoDuration(asked);
      if (nanos === undefined) {
        throw errors.badRequest(`invalid timeout specified in the request URL - time: invalid duration ${JSON.stringify(asked)}`);
      }
      // Zero or more than the server's limit means the server's limit.
      if (nanos > 0 && nanos / 1e6 < timeoutMs) timeoutMs = nanos / 1e6;
    }
    if (!(timeoutMs > 0)) return next();
    const work = next();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(expire, timeoutMs, work, reject);
      work.then(() => {
        clearTimeout(timer);
        resolve();
      }, (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  };
}
