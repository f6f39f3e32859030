// The aggregator's availability metrics, as upstream v1.28 names them:
// aggregator_unavailable_apiservice (1 for each APIService not Available, else 0) and
// aggregator_unavailable_apiservice_total (transitions to unavailable by name and reason).
// Upstream sets the gauge from its availability controller, which every kube-apiserver
// runs; ours runs in the elected replica only, so the gauge is read from each replica's
// own APIService informer at scrape time instead and every replica reports it. The
// counter moves where the transition is written (the elected replica), as upstream's
// moves in the apiserver whose controller wrote it.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { KubeObject } from '../runtime/object.js';
import { isAvailable } from './apiservice.js';

export interface AggregatorMetrics {
  /** An APIService was just marked unavailable with `reason` (upstream's UnknownReason without a condition). */
  markedUnavailable(name: string, reason: string | undefined): void;
}

const gaugeName = 'aggregator_unavailable_apiservice';
const counterName = 'aggregator_unavailable_apiservice_total';

/** Registers both families in `registry`; the gauge reads `apiServices()` when scraped. */
export function registerAggregatorMetrics(registry: Registry, apiServices: () => KubeObject[]): AggregatorMetrics {
  // A process builds one aggregator per server; a later one (tests) takes the gauge over.
  registry.removeSingleMetric(gaugeName);
  new Gauge({
    name: gaugeName,
    help: '[ALPHA] Gauge of APIServices which are marked as unavailable broken down by APIService name.',
    labelNames: ['name'],
    registers: [registry],
    collect() {
      this.reset();
      for (const o of apiServices()) this.set({ name: o.metadata.name ?? '' }, isAvailable(o) ? 0 : 1);
    },
  });
  const counter = (registry.getSingleMetric(counterName) as Counter<'name' | 'reason'> | undefined) ?? new Counter({
    name: counterName,
    help: '[ALPHA] Counter of APIServices which are marked as unavailable broken down by APIService name and reason.',
    labelNames: ['name', 'reason'],
    registers: [registry],
  });
  return { markedUnavailable: (name, reason) => counter.inc({ name, reason: reason ?? 'UnknownReason' }) };
}
