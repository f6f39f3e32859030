// Shadow mode (--shadow-upstream): a sample (--shadow-fraction) of the reads this replica
// serves (get and list of resources, discovery, OpenAPI, /version; never a watch, a
// stream or a write) is sent to an upstream kube-apiserver on the same etcd as the same
// user, once our answer is written, and the two answers compared after normalizing what
// legitimately differs. Its own in-flight limit (--shadow-max-in-flight): a read beyond
// it is served and not copied, so the shadow never slows the real answer.
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { UserInfo } from '../../authentication/user.js';
import { anonymousUser } from '../../authentication/user.js';
import type { RequestInfo } from '../../endpoints/request/info.js';
import { captureAnswer } from './capture.js';
import { firstDifference, normalizeAnswer } from './normalize.js';
import { ShadowReport } from './report.js';
import { upstreamFromKubeconfig, type Upstream } from './upstream.js';

export interface ShadowConfig {
  kubeconfig: string;
  fraction: number;
  maxInFlight: number;
  registry: Registry;
  log: Logger;
  /** Our answers larger than this are not compared. */
  maxBodyBytes?: number;
  random?: () => number;
}

const readVerbs = new Set(['get', 'list']);
/** Subresources that stream or connect rather than answer an object. */
const streamed = new Set(['log', 'exec', 'attach', 'portforward', 'proxy']);
const nonResource = /^\/(api|apis|openapi|version)(\/|$)/;

export function isShadowable(ctx: Koa.Context): boolean {
  if (ctx.method !== 'GET') return false;
  const info = ctx.state.requestInfo as RequestInfo | undefined;
  if (!info) return false;
  if (info.isResourceRequest) return readVerbs.has(info.verb) && !streamed.has(info.subresource) && !info.legacyWatchPrefix;
  return nonResource.test(ctx.path);
}

export function shadowFilter(cfg: ShadowConfig, upstream: Upstream = upstreamFromKubeconfig(cfg.kubeconfig, cfg.maxInFlight)): Koa.Middleware {
  const report = new ShadowReport(cfg.registry, cfg.log);
  const random = cfg.random ?? Math.random;
  let inFlight = 0;
  return async (ctx, next) => {
    await next();
    if (!isShadowable(ctx) || random() >= cfg.fraction || inFlight >= cfg.maxInFlight) return;
    // Only JSON answers are compared (a protobuf answer's bytes are not comparable this way).
    if (!String(ctx.response.get('Content-Type')).startsWith('application/json')) return;
    inFlight++;
    const user = (ctx.state.user as UserInfo | undefined) ?? anonymousUser;
    const path = ctx.originalUrl;
    const status = ctx.status;
    const answer = captureAnswer(ctx, cfg.maxBodyBytes ?? 8 * 1024 * 1024);
    void (async () => {
      try {
        const ours = await answer;
        if (!ours) return;
        let theirs;
        try {
          theirs = await upstream.read(path, 'application/json', user);
        } catch (err) {
          report.upstreamError(path, (err as Error).message);
          return;
        }
        compare(report, { path, user: user.name, ours: { status, body: ours }, theirs: { status: theirs.status, body: theirs.body } });
      } finally {
        inFlight--;
      }
    })();
  };
}

interface Answer { status: number; body: Buffer }

function compare(report: ShadowReport, c: { path: string; user: string; ours: Answer; theirs: Answer }): void {
  const parse = (b: Buffer): unknown => { try { return JSON.parse(b.toString('utf8')); } catch { return b.toString('utf8'); } };
  const ours = normalizeAnswer(parse(c.ours.body));
  const theirs = normalizeAnswer(parse(c.theirs.body));
  const diff = c.ours.status !== c.theirs.status ? '(status)' : firstDifference(ours, theirs);
  if (diff === undefined) { report.count('same'); return; }
  report.different({
    path: c.path, user: c.user, status: { ours: c.ours.status, upstream: c.theirs.status }, firstDifference: diff,
    ours: c.ours.body.toString('utf8'), upstream: c.theirs.body.toString('utf8'),
  });
}
