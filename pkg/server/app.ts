// Assembles the Koa application: the filter chain in upstream's order, then the
// non-resource endpoints, then the generic resource handler.
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Admission } from '../admission/interfaces.js';
import type { Authenticator } from '../authentication/interfaces.js';
import type { Authorizer } from '../authorization/interfaces.js';
import type { Auditor } from '../audit/auditor.js';
import { auditFilter, auditInitFilter, failedAuthenticationAuditFilter } from '../endpoints/filters/audit.js';
import { authenticationFilter } from '../endpoints/filters/authentication.js';
import { authorizationFilter } from '../endpoints/filters/authorization.js';
import { errorFilter } from '../endpoints/filters/errors.js';
import { markNonResourceRoute } from '../endpoints/filters/metrics.js';
import { impersonationFilter } from '../endpoints/filters/impersonation.js';
import { requestInfoFilter } from '../endpoints/filters/request-info.js';
import { requestTargetFilter } from '../endpoints/filters/request-target.js';
import { requestDeadlineFilter, type RequestLimits } from '../endpoints/filters/request-deadline.js';
import { shutdownFilter } from '../endpoints/filters/shutdown.js';
import { goawayFilter } from '../endpoints/filters/goaway.js';
import { ServerLifecycle } from '../endpoints/request/lifecycle.js';
import { notFoundResource, resourceHandler, type Registry } from '../endpoints/installer.js';
import type { RequestInfo } from '../endpoints/request/info.js';
import type { ConnectDeps } from '../endpoints/handlers/connect.js';
import { sendBatchedBody } from '../endpoints/handlers/list-encoder.js';
import { sendHttp2Body } from '../endpoints/handlers/http2-body.js';
import { askEarly } from '../endpoints/handlers/list-ahead.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { leanHeaderSet } from './koa-headers.js';

/**
 * A non-resource endpoint: answers and returns true, or returns false to pass (a plain
 * false, without a promise, when it can tell at once: the aggregator's proxy, which every
 * resource request asks first).
 */
export type PathHandler = (ctx: Koa.Context) => boolean | Promise<boolean>;

export interface AppConfig {
  log: Logger;
  /** Middleware that must wrap everything (request logging, metrics). */
  outerFilters: Koa.Middleware[];
  authenticator: Authenticator;
  authorizer: Authorizer;
  admission: Admission;
  /** API Priority and Fairness, or the max-in-flight limit (after impersonation). */
  flowControl?: Koa.Middleware;
  /** Absent: no audit policy or backend configured. */
  auditor?: Auditor;
  registry: Registry;
  pathHandlers: PathHandler[];
  /**
   * Those of pathHandlers that may answer a resource request (the aggregator's proxy);
   * the others serve fixed non-resource paths (health, metrics, OpenAPI, discovery), so a
   * resource request, every CRUD call, skips them. Absent: all of them.
   */
  resourcePathHandlers?: PathHandler[];
  /** Absent: a replica that is never shut down gracefully (in-process tests). */
  lifecycle?: ServerLifecycle;
  /** --shutdown-send-retry-after */
  shutdownSendRetryAfter?: boolean;
  /** --goaway-chance (0: off). */
  goawayChance?: number;
  /** Absent: upstream's defaults (60 s, 3 MiB). */
  limits?: RequestLimits;
  /** What connect subresources (pods/log, exec, nodes/proxy...) reach their backends with. */
  connect?: ConnectDeps;
}

/**
 * Koa's body setter tests an object (JSON) body against the web globals ReadableStream,
 * Blob and Response, and Node loads Response (undici) on first use: a 30-40 ms pause (it
 * fell on the first large list a replica streamed while Koa's respond() tested them too).
 * The server loads them as soon as it is ready: before that only health checks are
 * answered, and they never reach Koa.
 */
export function loadWebGlobals(): void {
  void [globalThis.Blob, globalThis.ReadableStream, globalThis.Response];
}

export function createApp(cfg: AppConfig): Koa {
  const app = new Koa();
  app.silent = true;
  leanHeaderSet(app);
  // Every filter that acts when its response is really sent (metrics, APF, audit, logging,
  // shutdown) listens for the response's 'close', and Koa's pipeline for a streamed body
  // adds its own: about a dozen by design, past the leak warning Node gives at 10.
  // Last on the way out, where Koa would send the body: a list's batched body is sent here
  // without Koa's stream pipeline (sendBatchedBody), and a whole body over HTTP/2 with
  // END_STREAM on its last frame (sendHttp2Body). First on the way in, a continue page
  // read ahead has etcd asked about it (askEarly).
  // Filters that do nothing once the rest of the chain has run return its promise rather
  // than await it, and those that do chain their step with then(): an async function
  // awaiting next() allocated about 400 bytes a request more than a plain pass-through.
  app.use((ctx, next) => {
    ctx.res.setMaxListeners(32);
    const sendBody = (): void => {
      sendBatchedBody(ctx);
      sendHttp2Body(ctx);
    };
    // Node's HTTP/2 session sends the question's frames to etcd only once the event loop
    // turns; without a turn here they waited for every filter to run first.
    if (askEarly(ctx)) return nextTurn().then(() => next()).then(sendBody);
    return next().then(sendBody);
  });
  // Before anything reads the path: a '#' is part of the target, as Go's server reads it.
  app.use(requestTargetFilter());
  for (const f of cfg.outerFilters) app.use(f);
  app.use(auditInitFilter());
  app.use(errorFilter(cfg.log));
  app.use(requestInfoFilter());
  app.use(shutdownFilter(cfg.lifecycle ?? new ServerLifecycle(), cfg.shutdownSendRetryAfter ?? false));
  if (cfg.goawayChance) app.use(goawayFilter(cfg.goawayChance));
  app.use(requestDeadlineFilter(cfg.limits ?? { requestTimeoutMs: 60_000, maxRequestBodyBytes: 3 * 1024 * 1024 }));
  app.use(failedAuthenticationAuditFilter(cfg.auditor));
  app.use(authenticationFilter(cfg.authenticator));
  app.use(auditFilter(cfg.auditor));
  app.use(impersonationFilter(cfg.authorizer));
  if (cfg.flowControl) app.use(cfg.flowControl);
  app.use(authorizationFilter(cfg.authorizer));
  const forResources = cfg.resourcePathHandlers ?? cfg.pathHandlers;
  app.use((ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo | undefined;
    return firstToAnswer(info?.isResourceRequest ? forResources : cfg.pathHandlers, 0, ctx, next);
  });
  app.use(resourceHandler(cfg.registry, cfg.admission, cfg.connect));
  app.use(async () => { throw notFoundResource(); });
  return app;
}

/** Asks `handlers` from `from` on in turn; none answering, the rest of the chain runs. */
function firstToAnswer(handlers: PathHandler[], from: number, ctx: Koa.Context, next: Koa.Next): Promise<void> {
  for (let i = from; i < handlers.length; i++) {
    const answered = handlers[i]!(ctx);
    if (answered === true) {
      markNonResourceRoute(ctx);
      return Promise.resolve();
    }
    if (answered !== false) {
      return answered.then((yes) => {
        if (!yes) return firstToAnswer(handlers, i + 1, ctx, next);
        markNonResourceRoute(ctx);
        return undefined;
      });
    }
  }
  return next();
}
