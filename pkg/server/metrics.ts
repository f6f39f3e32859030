// The apiserver's Prometheus metrics, named, labelled and bucketed as upstream v1.28
// exposes them, so dashboards and SLO queries written for kube-apiserver work unchanged.
// Help texts carry component-base's stability prefix ("[STABLE] ", "[ALPHA] ").
import type { Context } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Labels of apiserver_request_duration_seconds; apiserver_request_total adds `code`. */
export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

export type InflightKind = 'readOnly' | 'mutating';

type RequestLabelName = keyof RequestLabels;
const requestLabelNames: RequestLabelName[] = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
type LongRunningLabelName = Exclude<RequestLabelName, 'dry_run'>;
const longRunningLabelNames: LongRunningLabelName[] = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

/** Upstream's request and etcd latency buckets (seconds). */
export const requestDurationBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/**
 * Upstream reports the highest in-flight count seen in the last second rather than the
 * instantaneous value, which is too volatile to scrape meaningfully.
 */
class InflightWatermark {
  private current = 0;
  private windowStart: number;
  private windowMax = 0;
  private previousMax = 0;

  constructor(private readonly now: () => number) {
    this.windowStart = now();
  }

  add(delta: number): void {
    this.rotate();
    this.current += delta;
    this.windowMax = Math.max(this.windowMax, this.current);
  }

  value(): number {
    this.rotate();
    return Math.max(this.previousMax, this.windowMax);
  }

  private rotate(): void {
    const t = this.now();
    const elapsed = t - this.windowStart;
    if (elapsed < 1000) return;
    // A window that ended more than a second ago says nothing about the last second.
    this.previousMax = elapsed < 2000 ? this.windowMax : this.current;
    this.windowMax = this.current;
    this.windowStart = t;
  }
}

export interface ApiserverMetricsOptions {
  /** Also export the process_* and nodejs_* runtime metrics. */
  defaultMetrics?: boolean;
  /** Clock in milliseconds for the in-flight watermark; injectable for tests. */
  now?: () => number;
}

export class ApiserverMetrics {
  readonly registry = new Registry();
  readonly requestTotal: Counter<RequestLabelName | 'code'>;
  readonly requestDuration: Histogram<RequestLabelName>;
  readonly currentInflight: Gauge<'request_kind'>;
  readonly longRunning: Gauge<LongRunningLabelName>;
  readonly etcdRequestDuration: Histogram<'operation' | 'type'>;
  readonly requestedDeprecatedApis: Gauge<'group' | 'version' | 'resource' | 'subresource' | 'removed_release'>;
  private readonly inflight: Record<InflightKind, InflightWatermark>;

  constructor(options: ApiserverMetricsOptions = {}) {
    const registers = [this.registry];
    const now = options.now ?? Date.now;
    this.inflight = { readOnly: new InflightWatermark(now), mutating: new InflightWatermark(now) };
    this.requestTotal = new Counter({
      name: 'apiserver_request_total',
      help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...requestLabelNames, 'code'],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: requestLabelNames,
      buckets: requestDurationBuckets,
      registers,
    });
    const inflight = this.inflight;
    this.currentInflight = new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers,
      collect() {
        this.set({ request_kind: 'readOnly' }, inflight.readOnly.value());
        this.set({ request_kind: 'mutating' }, inflight.mutating.value());
      },
    });
    this.longRunning = new Gauge({
      name: 'apiserver_longrunning_requests',
      help: '[ALPHA] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: longRunningLabelNames,
      registers,
    });
    this.etcdRequestDuration = new Histogram({
      name: 'etcd_request_duration_seconds',
      help: '[ALPHA] Etcd request latency in seconds for each operation and object type.',
      labelNames: ['operation', 'type'],
      buckets: requestDurationBuckets,
      registers,
    });
    this.requestedDeprecatedApis = new Gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: '[STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      registers,
    });
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Records one finished request (upstream MonitorRequest). */
  observeRequest(labels: RequestLabels, code: number, seconds: number): void {
    this.requestTotal.inc({ ...labels, code: String(code) });
    this.requestDuration.observe({ ...labels }, seconds);
  }

  /** Counts a request as in flight; call the returned function exactly once when it ends. */
  beginInflight(kind: InflightKind): () => void {
    this.inflight[kind].add(1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inflight[kind].add(-1);
    };
  }

  /** Counts an open long-running request (watch, proxy...); call the result when it ends. */
  beginLongRunning(labels: RequestLabels): () => void {
    const { dry_run: _unused, ...l } = labels;
    this.longRunning.inc(l);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.longRunning.dec(l);
    };
  }

  /**
   * Times one etcd call (upstream RecordEtcdRequestLatency), failed or not. Operations
   * upstream uses: get, list, listWithCount, create, update, delete, count.
   */
  async timeEtcd<T>(operation: string, type: string, fn: () => Promise<T>): Promise<T> {
    const end = this.etcdRequestDuration.startTimer({ operation, type });
    try {
      return await fn();
    } finally {
      end();
    }
  }

  /** The Prometheus text exposition of every registered metric. */
  async exposition(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * The `type` label upstream derives from the Go type (`*core.ConfigMap`,
 * `*rbac.ClusterRoleList`): the internal package is the group's first DNS label, or
 * `core` for the core group.
 */
export function etcdTypeName(group: string, kind: string): string {
  return `*${group === '' ? 'core' : group.split('.')[0]}.${kind}`;
}

let shared: ApiserverMetrics | undefined;

/** The process-wide metrics every filter and the storage layer report into. */
export function apiserverMetrics(): ApiserverMetrics {
  shared ??= new ApiserverMetrics({ defaultMetrics: true });
  return shared;
}

/** Times an etcd call against the process-wide metrics. */
export function timeEtcdRequest<T>(operation: string, type: string, fn: () => Promise<T>): Promise<T> {
  return apiserverMetrics().timeEtcd(operation, type, fn);
}

/** Serves GET /metrics in the Prometheus text format. */
export function createMetricsHandler(metrics: ApiserverMetrics = apiserverMetrics()): (ctx: Context) => Promise<boolean> {
  return async (ctx) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
    ctx.status = 200;
    ctx.body = await metrics.exposition();
    ctx.set('Content-Type', metrics.registry.contentType);
    return true;
  };
}
