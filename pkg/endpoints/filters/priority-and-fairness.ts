// Holds requests back as upstream's WithPriorityAndFairness (or, with APF disabled,
// WithMaxInFlightLimit). It runs after impersonation, so the effective user is
// classified. Every classified response names its FlowSchema and priority level in
// X-Kubernetes-PF-* headers; exempt levels are never held. A seat is held until the
// response has been sent, as upstream's handler holds it while it writes (a large list
// streams its body after the handler returns: releasing then let any number of lists be
// written at once); a watch holds it only until its stream is set up. A request whose
// client goes away while it waits leaves its queue and never runs.
import type Koa from 'koa';
import type { UserInfo } from '../../authentication/user.js';
import type { APFController } from '../../util/flowcontrol/controller.js';
import { Rejected } from '../../util/flowcontrol/queueset.js';
import { estimateSeats, type ObjectCounts } from '../../util/flowcontrol/estimate.js';
import type { RequestInfo } from '../request/info.js';
import { isLongRunning, isReadOnly } from '../request/long-running.js';
import { plainTextError } from '../responsewriters/http-error.js';
import { whenResponseClosedWith, whenResponseSent } from '../responsewriters/sent.js';
import { attributesFor } from '../request/attributes.js';
import { requestQuery } from '../request/query.js';

/** Upstream answers with http.Error: plain text, not a Status, and Retry-After. */
function tooManyRequests(ctx: Koa.Context): void {
  plainTextError(ctx, 429, 'Too many requests, please try again later.', 1);
}

export function priorityAndFairnessFilter(apf: APFController, counts: ObjectCounts = () => undefined): Koa.Middleware {
  // Not an async function: a seat granted at once (nearly always) is used without a turn.
  return (ctx, next) => {
    if (!apf.ready()) return next();
    const info = ctx.state.requestInfo as RequestInfo;
    const user = ctx.state.user as UserInfo;
    const c = apf.classify(attributesFor(user, info));
    if (!c) return next();
    ctx.set('X-Kubernetes-PF-FlowSchema-UID', c.flowSchema.metadata.uid ?? '');
    ctx.set('X-Kubernetes-PF-PriorityLevel-UID', c.priorityLevel.metadata.uid ?? '');
    let admitted: ReturnType<APFController['admit']>;
    try {
      admitted = apf.admit(c, estimateSeats(info, requestQuery(ctx), counts), (withdraw) => whenResponseClosedWith(ctx.res, run, withdraw));
    } catch (err) {
      refused(ctx, err);
      return Promise.resolve();
    }
    if (typeof admitted === 'function') return holdUntilSent(ctx, info, admitted, next);
    return admitted.then((release) => holdUntilSent(ctx, info, release, next), (err: unknown) => refused(ctx, err));
  };
}

const run = (f: () => void): void => f();

/** A refused request is answered 429, even one withdrawn because its client went away (upstream writes to it too). */
function refused(ctx: Koa.Context, err: unknown): void {
  if (err instanceof Rejected) return tooManyRequests(ctx);
  throw err;
}

/** Runs the rest of the chain, then calls `release` once the response is sent (see top). */
function holdUntilSent(ctx: Koa.Context, info: RequestInfo, release: () => void, next: Koa.Next): Promise<void> {
  return next().then(() => {
    if (isLongRunning(info)) release();
    else whenResponseSent(ctx.res, release);
  }, (err: unknown) => {
    release();
    throw err;
  });
}

/**
 * --enable-priority-and-fairness=false: separate caps for read-only and mutating
 * requests (0 = unlimited), system:masters and long-running requests exempt.
 */
export function maxInFlightFilter(maxReadOnly: number, maxMutating: number): Koa.Middleware {
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo;
    const user = ctx.state.user as UserInfo;
    if (isLongRunning(info) || user.groups?.includes('system:masters')) return next();
    const kind = isReadOnly(info) ? 'readOnly' : 'mutating';
    const limit = kind === 'readOnly' ? maxReadOnly : maxMutating;
    if (limit > 0 && inFlight[kind] >= limit) return tooManyRequests(ctx);
    inFlight[kind]++;
    await holdUntilSent(ctx, info, () => { inFlight[kind]--; }, next);
  };
}
