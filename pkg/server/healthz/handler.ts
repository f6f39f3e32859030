// Serves /healthz, /livez, /readyz and /<endpoint>/<check> with upstream's text output:
// "ok" on success; with ?verbose one "[+]<name> ok" line per check and
// "<endpoint> check passed"; on failure 500 with the verbose lines, failing checks as
// "[-]<name> failed: reason withheld" (the reason goes only to the log) and
// "<endpoint> check failed". ?exclude=<name> skips a check. A single check's endpoint
// shows its reason, since it is meant for operators.
import type { Context } from 'koa';
import type { HealthCheck, HealthEndpoint, HealthRegistry } from './registry.js';

export interface HealthHandlerOptions {
  /** Told about every failing check with its reason (upstream logs these at V(2)). */
  onCheckFailed?: (endpoint: HealthEndpoint, name: string, err: Error) => void;
}

export type HealthHandler = (ctx: Context) => Promise<boolean>;

const endpoints: readonly HealthEndpoint[] = ['healthz', 'livez', 'readyz'];

function toError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

async function run(c: HealthCheck): Promise<Error | undefined> {
  try {
    await c.check();
    return undefined;
  } catch (e) {
    return toError(e);
  }
}

function text(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.body = body;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.set('X-Content-Type-Options', 'nosniff');
}

async function serveAll(ctx: Context, endpoint: HealthEndpoint, checks: readonly HealthCheck[], opts: HealthHandlerOptions): Promise<void> {
  const params = new URLSearchParams(ctx.querystring);
  const excluded = new Set(params.getAll('exclude'));
  const results = await Promise.all(checks.map((c) => (excluded.has(c.name) ? 'excluded' as const : run(c))));
  let out = '';
  let failed = false;
  checks.forEach((c, i) => {
    const r = results[i];
    if (r === 'excluded') {
      excluded.delete(c.name);
      out += `[+]${c.name} excluded: ok\n`;
    } else if (r) {
      failed = true;
      out += `[-]${c.name} failed: reason withheld\n`;
      opts.onCheckFailed?.(endpoint, c.name, r);
    } else {
      out += `[+]${c.name} ok\n`;
    }
  });
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => JSON.stringify(n)).join(',');
    out += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
  }
  if (failed) {
    text(ctx, 500, `${out}${endpoint} check failed\n`);
    return;
  }
  text(ctx, 200, params.has('verbose') ? `${out}${endpoint} check passed\n` : 'ok');
}

async function serveOne(ctx: Context, endpoint: HealthEndpoint, c: HealthCheck, opts: HealthHandlerOptions): Promise<void> {
  const err = await run(c);
  if (err) {
    opts.onCheckFailed?.(endpoint, c.name, err);
    text(ctx, 500, `internal server error: ${err.message}\n`);
    return;
  }
  text(ctx, 200, 'ok');
}

export function createHealthHandler(registry: HealthRegistry, opts: HealthHandlerOptions = {}): HealthHandler {
  return async (ctx) => {
    const path = ctx.path;
    for (const endpoint of endpoints) {
      const root = `/${endpoint}`;
      if (path === root) {
        await serveAll(ctx, endpoint, registry.checks(endpoint), opts);
        return true;
      }
      if (path.startsWith(`${root}/`)) {
        const name = path.slice(root.length + 1);
        const c = registry.checks(endpoint).find((x) => x.name === name);
        if (c) await serveOne(ctx, endpoint, c, opts);
        else text(ctx, 404, '404 page not found\n');
        return true;
      }
    }
    return false;
  };
}
