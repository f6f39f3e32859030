// Upstream's audit metrics (k8s.io/apiserver/pkg/audit/metrics.go), same names and labels.
import { Counter, type Registry } from 'prom-client';
import { FastCounter } from '../util/metric-series.js';
import type { Level } from './policy.js';

export class AuditMetrics {
  readonly events: Counter;
  readonly errors: Counter<'plugin'>;
  readonly levels: Counter<'level'>;
  readonly rejected: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.events = new Counter({ name: 'apiserver_audit_event_total', help: '[ALPHA] Counter of audit events generated and sent to the audit backend.', registers });
    this.errors = new Counter({ name: 'apiserver_audit_error_total', help: '[ALPHA] Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.', labelNames: ['plugin'], registers });
    this.levels = new FastCounter({ name: 'apiserver_audit_level_total', help: '[ALPHA] Counter of policy levels for audit events (1 per request).', labelNames: ['level'], registers });
    this.rejected = new Counter({ name: 'apiserver_audit_requests_rejected_total', help: '[ALPHA] Counter of apiserver requests rejected due to an error in audit logging backend.', registers });
  }

  observeLevel(level: Level): void {
    this.levels.inc({ level });
  }
}

const byRegistry = new WeakMap<Registry, AuditMetrics>();

/** One set of audit metrics per registry (several servers in one test process share it). */
export function auditMetrics(registry: Registry): AuditMetrics {
  let m = byRegistry.get(registry);
  if (!m) { m = new AuditMetrics(registry); byRegistry.set(registry, m); }
  return m;
}
