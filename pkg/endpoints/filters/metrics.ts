// Request metrics filter: records apiserver_request_total and
// apiserver_request_duration_seconds once the response has been fully sent (so a watch
// counts its whole life), tracks in-flight and long-running requests, and derives the
// labels as upstream's MonitorRequest does: GET on a collection is LIST, a watch is
// WATCH, an apply patch is APPLY, other verbs are the HTTP method (POST, PUT, PATCH,
// DELETE); scope is resource / namespace / cluster; non-resource requests put their
// path in `subresource`, and only those a server endpoint answered (markNonResourceRoute).
import type { ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { compressedBytes } from '../responsewriters/compression.js';
import { closedAfterSettling, whenResponseClosed } from '../responsewriters/sent.js';
import { subresourceOf } from '../../registry/rest/resource.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import type { RequestInfo } from '../request/info.js';
import { parsedRequestInfo } from './request-info.js';
import { isLongRunning, isReadOnly } from '../request/long-running.js';
import { apiserverMetrics, type ApiserverMetrics, type InflightKind, type LongRunningLabels, type RequestLabels } from '../metrics/metrics.js';
import { requestQuery } from '../request/query.js';
import { sharedRecord } from '../../util/shared-records.js';

/** The request-info fields metrics and logging read (set by the request-info filter). */
export type RequestInfoFields = Pick<RequestInfo,
  'isResourceRequest' | 'verb' | 'apiGroup' | 'apiVersion' | 'resource' | 'subresource' | 'namespace' | 'name' | 'path'>;

const validVerbs = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);
// Upstream instruments only the root health endpoints, without a component.
const healthRoots = new Set(['/healthz', '/livez', '/readyz']);
const applyPatchType = 'application/apply-patch+yaml';

function isRequestInfo(v: unknown): v is RequestInfoFields {
  return typeof v === 'object' && v !== null && typeof (v as RequestInfoFields).isResourceRequest === 'boolean'
    && typeof (v as RequestInfoFields).verb === 'string';
}

/** The request info the request-info filter stored, or one parsed from the request. */
export function requestInfoOf(ctx: Context): RequestInfoFields {
  const state: unknown = ctx.state.requestInfo;
  if (isRequestInfo(state)) return state;
  return parsedRequestInfo(ctx);
}

/** Upstream CleanScope. */
export function cleanScope(info: RequestInfoFields): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

function isWatchQuery(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w !== null && w.toLowerCase() !== '0' && w.toLowerCase() !== 'false';
}

/** The verb label (upstream CanonicalVerb + cleanVerb), upper-case. */
export function reportedVerb(info: RequestInfoFields, method: string, query: URLSearchParams, contentType: string): string {
  if (info.verb === 'watch') return 'WATCH';
  const scope = cleanScope(info);
  const m = method.toUpperCase();
  let verb = m === 'GET' || m === 'HEAD' ? (scope !== 'resource' && scope !== '' ? 'LIST' : 'GET') : m;
  if (verb === 'LIST' && isWatchQuery(query)) verb = 'WATCH';
  if (verb === 'PATCH' && contentType.split(';')[0].trim().toLowerCase() === applyPatchType) verb = 'APPLY';
  return validVerbs.has(verb) ? verb : 'other';
}

/** The dry_run label: "" when absent, "All" when valid, "invalid" otherwise. */
export function cleanDryRun(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

export { isLongRunning };

export function inflightKind(info: RequestInfoFields): InflightKind {
  return isReadOnly(info) ? 'readOnly' : 'mutating';
}

export function requestLabels(info: RequestInfoFields, method: string, query: URLSearchParams, contentType: string): RequestLabels {
  const verb = reportedVerb(info, method, query, contentType);
  const dryRun = cleanDryRun(query);
  if (info.isResourceRequest) {
    return {
      verb, dry_run: dryRun, group: info.apiGroup, version: info.apiVersion, resource: info.resource,
      subresource: info.subresource, scope: cleanScope(info), component: 'apiserver',
    };
  }
  return {
    verb, dry_run: dryRun, group: '', version: '', resource: '', subresource: info.path, scope: '',
    component: healthRoots.has(info.path) ? '' : 'apiserver',
  };
}

export interface MetricsFilterOptions {
  metrics?: ApiserverMetrics;
  /**
   * When given, resource requests for resources the scheme does not serve are not
   * recorded (upstream only instruments installed routes), so random paths cannot blow
   * up label cardinality.
   */
  scheme?: ResourceScheme;
}

const routedKey = 'metricsNonResourceRoute';

/**
 * Marks a non-resource request as answered by one of the server's own endpoints. Only
 * those are recorded, as upstream instruments only its registered routes: a request the
 * filters refused (401, 403, 429, an impersonation 500) or nothing served (404) never
 * reaches one, and its path, any string a client sends, must not become a label value.
 * (Recording them let a fuzz run grow /metrics to 296 MB, rendered in 4 s on the event loop.)
 */
export function markNonResourceRoute(ctx: Context): void {
  ctx.state[routedKey] = true;
}

/** The body's size as sent: its Content-Length, or what compression made of it. */
function responseBytes(ctx: Context): number | undefined {
  const declared = Number(ctx.res.getHeader('content-length'));
  return Number.isFinite(declared) ? declared : compressedBytes(ctx);
}

/**
 * The labels a request is recorded under, or undefined for one not recorded: resource
 * requests for what a route serves, non-resource ones a server endpoint answered (and not
 * 404; `code` undefined: not known yet, checked later).
 */
function recordedLabels(ctx: Context, info: RequestInfoFields, scheme: ResourceScheme | undefined, code: number | undefined): RequestLabels | undefined {
  if (info.isResourceRequest) {
    // Only what a route serves: an unknown subresource is any string a client sends too.
    const def = scheme?.resource(info.apiGroup, info.apiVersion, info.resource);
    if (scheme && (!def || (info.subresource !== '' && !subresourceOf(def, info.subresource)))) return undefined;
  } else if (code === 404 || info.path === '/metrics' || ctx.state[routedKey] !== true) {
    return undefined;
  }
  return requestLabels(info, ctx.method, requestQuery(ctx), ctx.get('Content-Type'));
}

/** Mount early (right after panic recovery) so latency covers the whole filter chain. */
export function createMetricsFilter(options: MetricsFilterOptions = {}): Middleware {
  const metrics = options.metrics ?? apiserverMetrics();
  const scheme = options.scheme;
  return (ctx, next) => {
    // A float clock: a BigInt reading is a heap object, and two more for the difference.
    const start = performance.now();
    const early = requestInfoOf(ctx);
    if (early.verb === 'watch') return observeWatch(ctx, next, early, start, metrics, scheme);
    const longRunning = isLongRunning(early);
    // Counted down in the close callback below, which runs once: no closure of its own.
    const inflight = longRunning ? undefined : inflightKind(early);
    if (inflight) metrics.changeInflight(inflight, 1);
    let open: LongRunningLabels | undefined;
    whenResponseClosed(ctx.res, () => {
      if (inflight) metrics.changeInflight(inflight, -1);
      if (open) metrics.endLongRunning(open);
      const info = requestInfoOf(ctx);
      const code = ctx.res.statusCode;
      const labels = recordedLabels(ctx, info, scheme, code);
      if (!labels) return;
      const seconds = (performance.now() - start) / 1e3;
      metrics.observeRequest(labels, code, seconds);
      if (!longRunning && info.isResourceRequest) metrics.observeServed(labels, seconds, responseBytes(ctx));
    });
    if (longRunning) {
      open = metrics.beginLongRunning(requestLabels(early, ctx.method, requestQuery(ctx), ctx.get('Content-Type')));
    }
    return next();
  };
}

/** What a watch's end records, decided once its handler has returned. */
interface WatchRecord {
  metrics: ApiserverMetrics;
  open: LongRunningLabels;
  start: number;
  res: ServerResponse;
  labels: RequestLabels | undefined;
  /** Non-resource: not recorded if it ends 404. */
  nonResource: boolean;
}

/**
 * A watch lives on after its handler returned (right after its response head), and its
 * close is recorded only then: what that reads is taken from the context once the chain
 * has settled, so the context is not kept for the watch's whole life. (Other long-running
 * requests, an exec or a proxied stream, may hold their handler for their whole life, and
 * keep the path above.)
 */
function observeWatch(ctx: Context, next: Next, early: RequestInfoFields, start: number,
  metrics: ApiserverMetrics, scheme: ResourceScheme | undefined): Promise<void> {
  const open = metrics.beginLongRunning(requestLabels(early, ctx.method, requestQuery(ctx), ctx.get('Content-Type')));
  return closedAfterSettling(ctx.res, next(), (): WatchRecord => {
    const info = requestInfoOf(ctx);
    const labels = recordedLabels(ctx, info, scheme, undefined);
    return { metrics, open, start, res: ctx.res, labels: labels && sharedRecord(watchLabelSets, labels), nonResource: !info.isResourceRequest };
  }, recordWatch);
}

/** The request labels watches end with, one object per distinct set (sharedRecord). */
const watchLabelSets = new Map<string, RequestLabels>();

function recordWatch(r: WatchRecord): void {
  r.metrics.endLongRunning(r.open);
  const code = r.res.statusCode;
  if (!r.labels || (r.nonResource && code === 404)) return;
  r.metrics.observeRequest(r.labels, code, (performance.now() - r.start) / 1e3);
}
