// The outer filters shadow mode adds to a replica: the comparison with --shadow-upstream,
// and the test-only answer alteration (alterAnswersEnv).
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ShadowOptions } from '../options/shadow.js';
import { shadowFilter } from './filter.js';
import { alterAnswersEnv, alterAnswersFilter } from './test-alter.js';

export function shadowFilters(o: ShadowOptions, log: Logger, registry: Registry): Koa.Middleware[] {
  const out: Koa.Middleware[] = [];
  if (o.shadowUpstream) {
    out.push(shadowFilter({ kubeconfig: o.shadowUpstream, fraction: o.shadowFraction, maxInFlight: o.shadowMaxInFlight, registry, log }));
    log.info({ upstream: o.shadowUpstream, fraction: o.shadowFraction, maxInFlight: o.shadowMaxInFlight }, 'shadow mode: comparing reads with upstream');
  }
  const alter = process.env[alterAnswersEnv];
  if (alter) out.push(alterAnswersFilter(alter));
  return out;
}
