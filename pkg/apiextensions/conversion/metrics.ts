// Upstream's conversion webhook metrics (apiextensions-apiserver conversion/metrics.go,
// v1.28): same names, labels and buckets. One set per prom-client registry.
import { Counter, Histogram, type Registry } from 'prom-client';

export type ConversionFailureType =
  | 'conversion_webhook_call_failure'
  | 'conversion_webhook_malformed_response_failure'
  | 'conversion_webhook_partial_response_failure'
  | 'conversion_webhook_invalid_converted_object_failure'
  | 'conversion_webhook_no_objects_returned_failure';

export class ConversionMetrics {
  private readonly requests: Counter<'result' | 'failure_type'>;
  private readonly latency: Histogram<'result' | 'failure_type'>;
  private readonly crdDuration: Histogram<'crd_name' | 'from_version' | 'to_version' | 'succeeded'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'apiserver_conversion_webhook_request_total',
      help: '[ALPHA] Counter for conversion webhook requests with success/failure and failure error type',
      labelNames: ['result', 'failure_type'],
      registers,
    });
    this.latency = new Histogram({
      name: 'apiserver_conversion_webhook_duration_seconds',
      help: '[ALPHA] Conversion webhook request latency',
      labelNames: ['result', 'failure_type'],
      buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 45, 60],
      registers,
    });
    this.crdDuration = new Histogram({
      name: 'apiserver_crd_conversion_webhook_duration_seconds',
      help: '[ALPHA] CRD webhook conversion duration in seconds',
      labelNames: ['crd_name', 'from_version', 'to_version', 'succeeded'],
      buckets: Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i),
      registers,
    });
  }

  /** One webhook call, from sending the review to accepting or refusing its answer. */
  call(seconds: number, failure: ConversionFailureType | undefined): void {
    const labels = { result: failure ? 'failure' : 'success', failure_type: failure ?? '' };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  /** One conversion of a CRD's objects between two different versions. */
  conversion(crdName: string, fromVersion: string, toVersion: string, seconds: number, succeeded: boolean): void {
    this.crdDuration.observe({ crd_name: crdName, from_version: fromVersion, to_version: toVersion, succeeded: String(succeeded) }, seconds);
  }
}

const byRegistry = new WeakMap<Registry, ConversionMetrics>();

export function conversionMetrics(registry: Registry): ConversionMetrics {
  let m = byRegistry.get(registry);
  if (!m) { m = new ConversionMetrics(registry); byRegistry.set(registry, m); }
  return m;
}
