// Structured logging: the logger factory and the per-request line upstream's httplog
// writes once a request has finished (message "HTTP" with verb, URI, latency, userAgent,
// audit-ID, srcIP and resp), plus the authenticated user and the latency in ms.
import type { ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { reportedVerb, requestInfoOf } from './metrics.js';
import { klogTextDestination } from './klog-text.js';
import { writeRecord } from './request-record.js';
import { connectionSocket } from '../../util/net/connection.js';
import { closedAfterSettling, whenResponseClosed } from '../responsewriters/sent.js';
import { flatString } from '../../util/flat-string.js';
import { requestQuery } from '../request/query.js';

export type LogLevel = Level | 'silent';

export type LogFormat = 'text' | 'json';

/**
 * A logger on stderr (where upstream components log): klog-style text lines, or JSON
 * records for log pipelines; written synchronously so the last lines before a crash
 * are not lost.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const dest = destination ?? (format === 'text' ? klogTextDestination() : pino.destination({ dest: 2, sync: true }));
  return pino({ level, base: { pid: process.pid }, timestamp: format === 'text' ? pino.stdTimeFunctions.epochTime : isoTime }, dest);
}

let isoTimeMs = -1;
let isoTimeChunk = '';

/**
 * pino's isoTime (the same chunk), its string made once per millisecond: under load a
 * replica writes several request lines a millisecond, and toISOString was a sixth of a
 * line's cost (0.5 of 2.8 us warm).
 */
export function isoTime(): string {
  const now = Date.now();
  if (now !== isoTimeMs) {
    isoTimeMs = now;
    isoTimeChunk = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoTimeChunk;
}

/** Maps klog's -v verbosity onto pino levels: request lines (upstream V(3)) show from -v=3. */
export function levelForVerbosity(v: number): LogLevel {
  if (v >= 5) return 'trace';
  if (v >= 3) return 'debug';
  return 'info';
}

/** Go's time.Duration formatting ("1.5ms", "250µs", "2m3.5s"), as httplog prints latency. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const abs = neg ? -ns : ns;
  const trim = (whole: bigint, frac: bigint, digits: number) => {
    const f = frac.toString().padStart(digits, '0').replace(/0+$/, '');
    return f ? `${whole}.${f}` : `${whole}`;
  };
  let out: string;
  if (abs < 1_000n) out = `${abs}ns`;
  else if (abs < 1_000_000n) out = `${trim(abs / 1_000n, abs % 1_000n, 3)}µs`;
  else if (abs < 1_000_000_000n) out = `${trim(abs / 1_000_000n, abs % 1_000_000n, 6)}ms`;
  else {
    const h = abs / 3_600_000_000_000n;
    const m = (abs / 60_000_000_000n) % 60n;
    const sNs = abs % 60_000_000_000n;
    const s = `${trim(sNs / 1_000_000_000n, sNs % 1_000_000_000n, 9)}s`;
    out = h > 0n ? `${h}h${m}m${s}` : m > 0n ? `${m}m${s}` : s;
  }
  return neg ? `-${out}` : out;
}

function remoteAddr(ctx: Context): string {
  const s = connectionSocket(ctx.req);
  const ip = s.remoteAddress ?? '';
  return `${ip.includes(':') ? `[${ip}]` : ip}:${s.remotePort ?? 0}`;
}

function auditID(ctx: Context): string {
  const fromState: unknown = ctx.state.auditID;
  if (typeof fromState === 'string') return fromState;
  const fromResponse = ctx.response.get('Audit-ID');
  return typeof fromResponse === 'string' && fromResponse !== '' ? fromResponse : ctx.get('Audit-ID');
}

function userName(ctx: Context): string | undefined {
  const user: unknown = ctx.state.user;
  if (typeof user === 'object' && user !== null && typeof (user as { name?: unknown }).name === 'string') {
    return (user as { name: string }).name;
  }
  return undefined;
}

export interface RequestLogOptions {
  /**
   * Level of request lines (upstream logs them at -v=3: `debug` here); 5xx responses
   * (but a failing health check's) are always logged at `error`, and requests slower than `slowMs` at `warn`. Default `debug`.
   */
  level?: Level;
  /** Requests taking longer than this are logged whatever the verbosity (long-running ones excepted). Default 1000. */
  slowMs?: number;
}

/** One structured line per request, written when the response has been sent (or aborted). */
export function createRequestLogger(log: Logger, options: RequestLogOptions = {}): Middleware {
  const level = options.level ?? 'debug';
  const slowNs = BigInt(Math.round((options.slowMs ?? 1000) * 1e6));
  return (ctx, next) => {
    const start = process.hrtime.bigint();
    // Read now: later filters may rewrite request headers (impersonation, authentication).
    const userAgent = ctx.get('User-Agent');
    const contentType = ctx.get('Content-Type');
    // Read now: once the response closes, the socket may be gone (remote address undefined).
    const srcIP = remoteAddr(ctx);
    if (requestInfoOf(ctx).verb === 'watch') return logWatch(ctx, next, { log, level, start, userAgent, contentType, srcIP: flatString(srcIP) });
    whenResponseClosed(ctx.res, () => {
      const elapsed = process.hrtime.bigint() - start;
      const code = ctx.res.statusCode;
      // Watches and other streams last as long as the client wants: never "slow".
      const slow = elapsed > slowNs && !isStreaming(ctx);
      // A failing health check answers 500 by design (starting, shutting down, etcd away):
      // the health handler logs the failed checks; the request line keeps its level.
      const method = code >= 500 && !isHealthCheck(ctx.path) ? 'error' : slow ? 'warn' : level;
      // Below the verbosity (upstream logs request lines from V(3)): no line to build.
      if (!log.isLevelEnabled(method)) return;
      writeLine(log, method, factsOf(ctx, contentType), elapsed, userAgent, srcIP, ctx.res, slow);
    });
    return next();
  };
}

/** What a request line says of the request (the response's part is added by writeLine). */
interface RequestFacts { verb: string; uri: string; auditID: string; user: string | undefined }

function factsOf(ctx: Context, contentType: string): RequestFacts {
  return { verb: reportedVerb(requestInfoOf(ctx), ctx.method, requestQuery(ctx), contentType), uri: ctx.originalUrl, auditID: auditID(ctx), user: userName(ctx) };
}

function writeLine(log: Logger, method: Level, f: RequestFacts, elapsed: bigint, userAgent: string, srcIP: string, res: ServerResponse, slow: boolean): void {
  const line: Record<string, unknown> = {
    verb: f.verb,
    URI: f.uri,
    latency: formatGoDuration(elapsed),
    latencyMs: Number(elapsed) / 1e6,
    userAgent,
    'audit-ID': f.auditID,
    srcIP,
    resp: res.statusCode,
    user: f.user,
  };
  if (!res.writableFinished) line.aborted = true;
  if (slow) line.slow = true;
  writeRecord(log, method, line, 'HTTP');
}

interface WatchLine { log: Logger; level: Level; start: bigint; userAgent: string; contentType: string; srcIP: string; facts?: RequestFacts; res?: ServerResponse }

/**
 * A watch lives on after its handler returned (right after its response head) and is
 * logged when it ends: what its line says of the request is read from the context once
 * the chain has settled, so the context is not kept for the watch's whole life. A watch is
 * never "slow".
 */
function logWatch(ctx: Context, next: Next, w: WatchLine): Promise<void> {
  return closedAfterSettling(ctx.res, next(), () => {
    w.facts = factsOf(ctx, w.contentType);
    w.res = ctx.res;
    return w;
  }, watchEnded);
}

function watchEnded(w: WatchLine): void {
  const method = w.res!.statusCode >= 500 ? 'error' : w.level;
  if (!w.log.isLevelEnabled(method)) return;
  writeLine(w.log, method, w.facts!, process.hrtime.bigint() - w.start, w.userAgent, w.srcIP, w.res!, false);
}

function isHealthCheck(path: string): boolean {
  return /^\/(healthz|livez|readyz)(\/|$)/.test(path);
}

function isStreaming(ctx: Context): boolean {
  const info = requestInfoOf(ctx);
  return info.verb === 'watch' || ['exec', 'attach', 'portforward', 'proxy', 'log'].includes(info.subresource ?? '') || ctx.get('Upgrade') !== '';
}
