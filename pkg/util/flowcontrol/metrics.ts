// Upstream's apiserver_flowcontrol_* metrics (k8s.io/apiserver/pkg/util/flowcontrol/metrics),
// same names and labels, for the ones this server's model has.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from '../metric-series.js';

export class FlowcontrolMetrics {
  readonly dispatched: Counter<'flow_schema' | 'priority_level'>;
  readonly rejected: Counter<'flow_schema' | 'priority_level' | 'reason'>;
  readonly inQueue: Gauge<'flow_schema' | 'priority_level'>;
  readonly executing: Gauge<'flow_schema' | 'priority_level'>;
  readonly waitDuration: Histogram<'flow_schema' | 'priority_level' | 'execute'>;
  readonly nominalLimit: Gauge<'priority_level'>;
  readonly concurrencyLimit: Gauge<'priority_level'>;
  readonly lowerLimit: Gauge<'priority_level'>;
  readonly upperLimit: Gauge<'priority_level'>;
  readonly currentLimit: Gauge<'priority_level'>;
  readonly demandHighWatermark: Gauge<'priority_level'>;
  readonly demandAverage: Gauge<'priority_level'>;
  readonly demandStdev: Gauge<'priority_level'>;
  readonly demandSmoothed: Gauge<'priority_level'>;
  readonly target: Gauge<'priority_level'>;
  readonly fairFraction: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    const fsPl = ['flow_schema', 'priority_level'] as const;
    this.dispatched = new FastCounter({ name: 'apiserver_flowcontrol_dispatched_requests_total', help: '[BETA] Number of requests executed by API Priority and Fairness subsystem', labelNames: fsPl, registers });
    this.rejected = new Counter({ name: 'apiserver_flowcontrol_rejected_requests_total', help: '[BETA] Number of requests rejected by API Priority and Fairness subsystem', labelNames: [...fsPl, 'reason'], registers });
    this.inQueue = new Gauge({ name: 'apiserver_flowcontrol_current_inqueue_requests', help: '[BETA] Number of requests currently pending in queues of the API Priority and Fairness subsystem', labelNames: fsPl, registers });
    this.executing = new FastGauge({ name: 'apiserver_flowcontrol_current_executing_requests', help: '[BETA] Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', labelNames: fsPl, registers });
    this.waitDuration = new FastHistogram({ name: 'apiserver_flowcontrol_request_wait_duration_seconds', help: '[BETA] Length of time a request spent waiting in its queue', labelNames: [...fsPl, 'execute'],
      buckets: [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30], registers });
    this.nominalLimit = new Gauge({ name: 'apiserver_flowcontrol_nominal_limit_seats', help: '[BETA] Nominal number of execution seats configured for each priority level', labelNames: ['priority_level'], registers });
    this.concurrencyLimit = new Gauge({ name: 'apiserver_flowcontrol_request_concurrency_limit', help: '[BETA] Nominal number of execution seats configured for each priority level', labelNames: ['priority_level'], registers });
    const level = (name: string, help: string): Gauge<'priority_level'> => new Gauge({ name: `apiserver_flowcontrol_${name}`, help: `[ALPHA] ${help}`, labelNames: ['priority_level'], registers });
    this.lowerLimit = level('lower_limit_seats', 'Configured lower bound on number of execution seats available to each priority level');
    this.upperLimit = level('upper_limit_seats', 'Configured upper bound on number of execution seats available to each priority level');
    this.currentLimit = level('current_limit_seats', 'current derived number of execution seats available to each priority level');
    this.demandHighWatermark = level('demand_seats_high_watermark', 'High watermark, over last adjustment period, of demand_seats');
    this.demandAverage = level('demand_seats_average', 'Time-weighted average, over last adjustment period, of demand_seats');
    this.demandStdev = level('demand_seats_stdev', 'Time-weighted standard deviation, over last adjustment period, of demand_seats');
    this.demandSmoothed = level('demand_seats_smoothed', 'Smoothed seat demands');
    this.target = level('target_seats', 'Seat allocation targets');
    this.fairFraction = new Gauge({ name: 'apiserver_flowcontrol_seat_fair_frac', help: '[ALPHA] Fair fraction of server\'s concurrency to allocate to each priority level that can use it', registers });
  }
}

const byRegistry = new WeakMap<Registry, FlowcontrolMetrics>();

export function flowcontrolMetrics(registry: Registry): FlowcontrolMetrics {
  let m = byRegistry.get(registry);
  if (!m) { m = new FlowcontrolMetrics(registry); byRegistry.set(registry, m); }
  return m;
}
