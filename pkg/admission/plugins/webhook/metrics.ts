// Upstream's admission webhook metrics (k8s.io/apiserver/pkg/admission/metrics): same
// names, labels and buckets. One set per prom-client registry.
import { Counter, Histogram, type Registry } from 'prom-client';

export type WebhookType = 'admit' | 'validating';
export type RejectionErrorType = 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error';

export class WebhookMetrics {
  private readonly duration: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  private readonly rejections: Counter<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>;
  private readonly requests: Counter<'name' | 'type' | 'operation' | 'code' | 'rejected'>;
  private readonly failOpen: Counter<'name' | 'type'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.duration = new Histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: '[STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
      registers,
    });
    this.rejections = new Counter({
      name: 'apiserver_admission_webhook_rejection_count',
      help: '[ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
      registers,
    });
    this.requests = new Counter({
      name: 'apiserver_admission_webhook_request_total',
      help: '[ALPHA] Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
      registers,
    });
    this.failOpen = new Counter({
      name: 'apiserver_admission_webhook_fail_open_count',
      help: '[ALPHA] Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
      labelNames: ['name', 'type'],
      registers,
    });
  }

  observe(name: string, type: WebhookType, operation: string, seconds: number, rejected: boolean, code: number): void {
    const r = String(rejected);
    this.duration.observe({ name, type, operation, rejected: r }, seconds);
    this.requests.inc({ name, type, operation, code: String(Math.min(code, 600)), rejected: r });
  }

  rejection(name: string, type: WebhookType, operation: string, errorType: RejectionErrorType, code: number): void {
    this.rejections.inc({ name, type, operation, error_type: errorType, rejection_code: String(Math.min(code, 600)) });
  }

  failedOpen(name: string, type: WebhookType): void {
    this.failOpen.inc({ name, type });
  }
}

const byRegistry = new WeakMap<Registry, WebhookMetrics>();

export function webhookMetrics(registry: Registry): WebhookMetrics {
  let m = byRegistry.get(registry);
  if (!m) { m = new WebhookMetrics(registry); byRegistry.set(registry, m); }
  return m;
}
