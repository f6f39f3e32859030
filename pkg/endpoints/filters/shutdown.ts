// Graceful shutdown at the front of the chain (upstream's WithWaitGroup and
// WithRetryAfter): in-flight requests are counted so the replica drains them before it
// closes; once shutdown starts every response asks the client to drop the connection
// (Connection: close, over HTTP/2 a GOAWAY), so keep-alive clients reconnect (through the
// load balancer, elsewhere) instead of reusing a connection that is about to close; and with --shutdown-send-retry-after, a
// request arriving after the shutdown delay gets a 429 with Retry-After. Once the
// in-flight requests are drained nothing new starts, whatever the flag: a request that
// still reaches the replica then (a keep-alive connection not closed yet, an in-process
// loopback call) gets the same 429 instead of meeting a storage client being closed.
import type Koa from 'koa';
import type { ServerLifecycle } from '../request/lifecycle.js';
import type { RequestInfo } from '../request/info.js';
import { isLongRunning } from '../request/long-running.js';
import { plainTextError } from '../responsewriters/http-error.js';
import { whenResponseSent } from '../responsewriters/sent.js';
import { closeConnectionAfter } from '../../util/net/connection.js';

const exemptPaths = ['/readyz', '/livez', '/healthz', '/metrics', '/version'];
const isExempt = (path: string) => exemptPaths.some((p) => path === p || path.startsWith(`${p}/`));

export function shutdownFilter(lifecycle: ServerLifecycle, sendRetryAfter: boolean): Koa.Middleware {
  return (ctx, next) => {
    ctx.state.lifecycle = lifecycle;
    if (lifecycle.shutdownInitiated) closeConnectionAfter(ctx.req, ctx.res);
    if ((lifecycle.drained || (sendRetryAfter && lifecycle.notAcceptingNewRequests)) && !isExempt(ctx.path)) {
      plainTextError(ctx, 429, 'The apiserver is shutting down, please try again later.', 5);
      return;
    }
    const info = ctx.state.requestInfo as RequestInfo | undefined;
    if (info && isLongRunning(info)) return next();
    const done = lifecycle.beginRequest();
    // Counted until the response is written, not only until the handler returned.
    const handled = (): void => whenResponseSent(ctx.res, done);
    return next().then(handled, (err: unknown) => {
      handled();
      throw err;
    });
  };
}
