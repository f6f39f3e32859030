// The non-resource endpoints of a replica and the outer filters around everything:
// request logging, metrics, health (with an etcd check), version. (OpenAPI is wired in
// server.ts, beside the aggregator whose extension servers' documents it merges.)
import type Koa from 'koa';
import type { Logger } from 'pino';
import { createRequestLogger } from '../endpoints/filters/logging.js';
import { createMetricsFilter } from '../endpoints/filters/metrics.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { createVersionHandler } from '../version/index.js';
import type { PathHandler } from './app.js';
import type { InformerFactory } from '../client/factory.js';
import { undecodableValues } from '../storage/etcd/undecodable.js';
import { createHealthHandler, createInformerSyncCheck, createLogCheck, createShutdownCheck, HealthRegistry, pingCheck } from './healthz/index.js';
import type { EtcdHealthChecks } from './etcd-health.js';
import { apiserverMetrics, createMetricsHandler } from '../endpoints/metrics/metrics.js';
import type { ServerOptions } from './options.js';

export interface Endpoints {
  pathHandlers: PathHandler[];
  outerFilters: Koa.Middleware[];
  health: HealthRegistry;
  /** /healthz, /livez, /readyz and their single checks (also served before the app is). */
  healthHandler: PathHandler;
  /** Flip readyz to failing before the listener closes (graceful shutdown). */
  beginShutdown(): void;
  stop(): void;
}

export function extraEndpoints(deps: { scheme: ResourceScheme; etcdChecks: EtcdHealthChecks; log: Logger; o: ServerOptions; informers: InformerFactory }): Endpoints {
  const health = new HealthRegistry({ livezGracePeriodMs: deps.o.livezGracePeriodMs });
  health.addHealthChecks(pingCheck, createLogCheck(), ...deps.etcdChecks.health);
  const shutdown = createShutdownCheck();
  health.addReadyzChecks(
    ...deps.etcdChecks.ready,
    createInformerSyncCheck(() => deps.informers.notSynced(), undecodableValues),
    shutdown,
  );
  const metrics = apiserverMetrics();
  const healthHandler = createHealthHandler(health, { onCheckFailed: (endpoint, name, err) => deps.log.warn({ endpoint, check: name, err: err.message }, 'health check failed') });
  return {
    health,
    healthHandler,
    outerFilters: [createMetricsFilter({ metrics, scheme: deps.scheme }), createRequestLogger(deps.log)],
    pathHandlers: [
      healthHandler,
      createVersionHandler(),
      createMetricsHandler(metrics),
    ],
    beginShutdown: () => shutdown.markShuttingDown(),
    stop: () => undefined,
  };
}

