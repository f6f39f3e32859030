// The apiserver's Prometheus metrics, named, labelled and bucketed as upstream v1.28
// exposes them, so dashboards and SLO queries written for kube-apiserver work unchanged.
// Help texts carry component-base's stability prefix ("[STABLE] ", "[ALPHA] ").
import type { Context } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FastCounter, FastHistogram } from '../../util/metric-series.js';
import { sharedRecord } from '../../util/shared-records.js';

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
/** The SLO/SLI latency buckets: the request buckets from 50 ms. */
export const sloDurationBuckets = requestDurationBuckets.slice(2);
/**
 * Deprecated families hidden in this release (component-base hides a metric the release
 * after its deprecation), with the release --show-hidden-metrics-for-version must name.
 */
const hiddenMetrics = new Map([['apiserver_request_slo_duration_seconds', '1.27']]);

/** prometheus.ExponentialBuckets. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}
const admissionDurationBuckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

/** The `type` label of the admission latency histograms. */
export type AdmissionPhase = 'admit' | 'validate';

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

/**
 * The labels of the families without dry_run. A literal: a rest destructuring
 * (`{ dry_run, ...l }`) is about 0.4 us warm in Node 20, on every request.
 */
function withoutDryRun(labels: RequestLabels): Record<LongRunningLabelName, string> {
  return {
    verb: labels.verb, group: labels.group, version: labels.version, resource: labels.resource,
    subresource: labels.subresource, scope: labels.scope, component: labels.component,
  };
}

/** The long-running gauge's labels, as beginLongRunning hands them out. */
export type LongRunningLabels = Readonly<Record<LongRunningLabelName, string>>;

export class ApiserverMetrics {
  private readonly longRunningLabelSets = new Map<string, LongRunningLabels>();
  readonly registry = new Registry();
  readonly requestTotal: Counter<RequestLabelName | 'code'>;
  readonly requestDuration: Histogram<RequestLabelName>;
  readonly currentInflight: Gauge<'request_kind'>;
  readonly longRunning: Gauge<LongRunningLabelName>;
  readonly etcdRequestDuration: Histogram<'operation' | 'type'>;
  readonly requestedDeprecatedApis: Gauge<'group' | 'version' | 'resource' | 'subresource' | 'removed_release'>;
  readonly requestSloDuration: Histogram<LongRunningLabelName>;
  readonly requestSliDuration: Histogram<LongRunningLabelName>;
  readonly responseSizes: Histogram<LongRunningLabelName>;
  readonly registeredWatchers: Gauge<'group' | 'version' | 'kind'>;
  readonly watchEvents: Counter<'group' | 'version' | 'kind'>;
  readonly watchEventSizes: FastHistogram<'group' | 'version' | 'kind'>;
  readonly storageObjects: Gauge<'resource'>;
  readonly storageList: Record<'total' | 'fetched' | 'evaluated' | 'returned', Counter<'resource'>>;
  readonly authenticationAttempts: Counter<'result'>;
  readonly authenticationDuration: Histogram<'result'>;
  readonly authenticatedUserRequests: Counter<'username'>;
  readonly admissionStepDuration: FastHistogram<'operation' | 'rejected' | 'type'>;
  readonly admissionControllerDuration: FastHistogram<'name' | 'operation' | 'rejected' | 'type'>;
  private readonly inflight: Record<InflightKind, InflightWatermark>;
  private shownHiddenVersion: string | undefined;

  constructor(options: ApiserverMetricsOptions = {}) {
    const registers = [this.registry];
    const now = options.now ?? Date.now;
    this.inflight = { readOnly: new InflightWatermark(now), mutating: new InflightWatermark(now) };
    this.requestTotal = new FastCounter({
      name: 'apiserver_request_total',
      help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...requestLabelNames, 'code'],
      registers,
    });
    this.requestDuration = new FastHistogram({
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
      help: '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: longRunningLabelNames,
      registers,
    });
    this.etcdRequestDuration = new FastHistogram({
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
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new FastHistogram<L>({ name, help, labelNames, buckets, registers });
    this.requestSloDuration = histogram('apiserver_request_slo_duration_seconds',
      '[ALPHA] (Deprecated since 1.27.0) Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      longRunningLabelNames, sloDurationBuckets);
    this.requestSliDuration = histogram('apiserver_request_sli_duration_seconds',
      '[ALPHA] Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      longRunningLabelNames, sloDurationBuckets);
    this.responseSizes = histogram('apiserver_response_sizes',
      '[STABLE] Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      longRunningLabelNames, exponentialBuckets(1000, 10, 8));
    this.registeredWatchers = new Gauge({ name: 'apiserver_registered_watchers',
      help: '[ALPHA] Number of currently registered watchers for a given resources', labelNames: ['group', 'version', 'kind'], registers });
    this.watchEvents = new FastCounter({ name: 'apiserver_watch_events_total',
      help: '[ALPHA] Number of events sent in watch clients', labelNames: ['group', 'version', 'kind'], registers });
    this.watchEventSizes = histogram('apiserver_watch_events_sizes', '[ALPHA] Watch event size distribution in bytes',
      ['group', 'version', 'kind'], exponentialBuckets(1024, 2, 8));
    this.storageObjects = new Gauge({ name: 'apiserver_storage_objects',
      help: '[STABLE] Number of stored objects at the time of last check split by kind.', labelNames: ['resource'], registers });
    const listCounter = (name: string, help: string) => new FastCounter({ name, help: `[ALPHA] ${help}`, labelNames: ['resource'], registers });
    this.storageList = {
      total: listCounter('apiserver_storage_list_total', 'Number of LIST requests served from storage'),
      fetched: listCounter('apiserver_storage_list_fetched_objects_total', 'Number of objects read from storage in the course of serving a LIST request'),
      evaluated: listCounter('apiserver_storage_list_evaluated_objects_total', 'Number of objects tested in the course of serving a LIST request from storage'),
      returned: listCounter('apiserver_storage_list_returned_objects_total', 'Number of objects returned for a LIST request from storage'),
    };
    this.authenticationAttempts = new FastCounter({ name: 'authentication_attempts',
      help: '[ALPHA] Counter of authenticated attempts.', labelNames: ['result'], registers });
    this.authenticationDuration = histogram('authentication_duration_seconds',
      '[ALPHA] Authentication duration in seconds broken out by result.', ['result'], exponentialBuckets(0.001, 2, 15));
    this.authenticatedUserRequests = new FastCounter({ name: 'authenticated_user_requests',
      help: '[ALPHA] Counter of authenticated requests broken out by username.', labelNames: ['username'], registers });
    this.admissionStepDuration = histogram('apiserver_admission_step_admission_duration_seconds',
      '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      ['operation', 'rejected', 'type'], admissionDurationBuckets);
    this.admissionControllerDuration = histogram('apiserver_admission_controller_admission_duration_seconds',
      '[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      ['name', 'operation', 'rejected', 'type'], admissionDurationBuckets);
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Records one finished request (upstream MonitorRequest). */
  observeRequest(labels: RequestLabels, code: number, seconds: number): void {
    // A literal: a spread with a member added (`{ ...labels, code }`) is about 1 us warm in
    // Node 20, a literal or Object.assign a tenth of it.
    this.requestTotal.inc({
      verb: labels.verb, dry_run: labels.dry_run, group: labels.group, version: labels.version, resource: labels.resource,
      subresource: labels.subresource, scope: labels.scope, component: labels.component, code: String(code),
    });
    // The request's own labels, made for this observation (prom-client keeps a new series' labels).
    this.requestDuration.observe(labels, seconds);
  }

  /** The SLO/SLI latency (upstream subtracts webhook and APF wait time; neither is tracked apart here) and read response sizes. */
  observeServed(labels: RequestLabels, seconds: number, responseBytes: number | undefined): void {
    const l = withoutDryRun(labels);
    this.requestSloDuration.observe(l, seconds);
    this.requestSliDuration.observe(l, seconds);
    if (responseBytes !== undefined && (labels.verb === 'GET' || labels.verb === 'LIST')) this.responseSizes.observe(l, responseBytes);
  }

  /** One authentication (upstream's result words: success, failure, error). */
  observeAuthentication(result: 'success' | 'failure' | 'error', seconds: number, username?: string): void {
    this.authenticationAttempts.inc({ result });
    this.authenticationDuration.observe({ result }, seconds);
    if (username !== undefined) this.authenticatedUserRequests.inc({ username: compressUsername(username) });
  }

  /**
   * The recorder of one admission phase (step, `plugin` undefined) or one plugin within it
   * (controller) for one operation: its label sets are resolved once, as the chain calls
   * it on every write.
   */
  admissionRecorder(plugin: string | undefined, operation: string, type: AdmissionPhase): (rejected: boolean, seconds: number) => void {
    const series = (rejected: 'true' | 'false') => (plugin === undefined
      ? this.admissionStepDuration.bound({ operation, rejected, type })
      : this.admissionControllerDuration.bound({ name: plugin, operation, rejected, type }));
    const admitted = series('false');
    const refused = series('true');
    return (rejected, seconds) => (rejected ? refused : admitted)(seconds);
  }

  /** Counts a request as in flight; call the returned function exactly once when it ends. */
  beginInflight(kind: InflightKind): () => void {
    this.changeInflight(kind, 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.changeInflight(kind, -1);
    };
  }

  /** beginInflight without the closure, for a caller that ends each request exactly once itself. */
  changeInflight(kind: InflightKind, delta: 1 | -1): void {
    this.inflight[kind].add(delta);
  }

  /**
   * Counts an open long-running request (watch, proxy...). The caller keeps the labels
   * returned (one object for every request with the same ones) and passes them to
   * endLongRunning exactly once, when the request ends: a watch holds them for its life.
   */
  beginLongRunning(labels: RequestLabels): LongRunningLabels {
    const l = sharedRecord(this.longRunningLabelSets, withoutDryRun(labels));
    this.longRunning.inc(l);
    return l;
  }

  endLongRunning(l: LongRunningLabels): void {
    this.longRunning.dec(l);
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
  /** --show-hidden-metrics-for-version: families deprecated in that release are shown again. */
  showHiddenMetricsFor(version: string | undefined): void {
    this.shownHiddenVersion = version;
  }

  async exposition(): Promise<string> {
    const text = await this.registry.metrics();
    const hidden = [...hiddenMetrics].filter(([, since]) => since !== this.shownHiddenVersion).map(([name]) => name);
    if (hidden.length === 0) return text;
    // Families come as blocks opened by their HELP line; drop the hidden ones whole.
    return text.split(/(?=^# HELP )/m).filter((block) => !hidden.some((name) => block.startsWith(`# HELP ${name} `))).join('');
  }
}

/** Upstream keeps a few well-known user names and folds the rest, bounding cardinality. */
export function compressUsername(username: string): string {
  if (['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default'].includes(username)) return username;
  return username.includes('@') ? 'email_id' : 'other';
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
