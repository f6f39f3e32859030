// Structured logging: the logger factory and the per-request line upstream's httplog
// writes once a request has finished (message "HTTP" with verb, URI, latency, userAgent,
// audit-ID, srcIP and resp), plus the authenticated user and the latency in ms.
import type { Context, Middleware } from 'koa';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { reportedVerb, requestInfoOf } from './metrics.js';

export type LogLevel = Level | 'silent';

/**
 * A JSON logger on stderr (where upstream components log), written synchronously so the
 * last lines before a crash are not lost.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    destination ?? pino.destination({ dest: 2, sync: true }),
  );
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
  const s = ctx.req.socket;
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
  /** Level of request lines; 5xx responses are always logged at `error`. Default `info`. */
  level?: Level;
}

/** One structured line per request, written when the response has been sent (or aborted). */
export function createRequestLogger(log: Logger, options: RequestLogOptions = {}): Middleware {
  const level = options.level ?? 'info';
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    // Read now: later filters may rewrite request headers (impersonation, authentication).
    const userAgent = ctx.get('User-Agent');
    const contentType = ctx.get('Content-Type');
    // Read now: once the response closes, the socket may be gone (remote address undefined).
    const srcIP = remoteAddr(ctx);
    ctx.res.once('close', () => {
      const elapsed = process.hrtime.bigint() - start;
      const code = ctx.res.statusCode;
      const info = requestInfoOf(ctx);
      const line = {
        verb: reportedVerb(info, ctx.method, new URLSearchParams(ctx.querystring), contentType),
        URI: ctx.originalUrl,
        latency: formatGoDuration(elapsed),
        latencyMs: Number(elapsed) / 1e6,
        userAgent,
        'audit-ID': auditID(ctx),
        srcIP,
        resp: code,
        user: userName(ctx),
        ...(ctx.res.writableFinished ? {} : { aborted: true }),
      };
      log[code >= 500 ? 'error' : level](line, 'HTTP');
    });
    await next();
  };
}
