// The audit pipeline of one replica: the policy checker and the backends the flags ask
// for, each wrapped in its mode. Without a policy file or a backend there is no auditor,
// as upstream (every request then costs nothing here).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { UnionBackend, type Backend } from './backend.js';
import { BufferedBackend } from './buffered-backend.js';
import type { AuditEvent } from './event.js';
import { LogBackend } from './log-backend.js';
import { auditMetrics, type AuditMetrics } from './metrics.js';
import type { AuditOptions, BackendModeOptions } from './options.js';
import { loadPolicyFile, PolicyChecker, type AuditAttributes, type RequestAuditConfig, type Stage } from './policy.js';
import { WebhookBackend } from './webhook-backend.js';

export class Auditor {
  constructor(private readonly checker: PolicyChecker, private readonly backend: Backend,
    readonly metrics: AuditMetrics, private readonly strict: boolean, private readonly log: Logger) {}

  configFor(a: AuditAttributes): RequestAuditConfig {
    const cfg = this.checker.configFor(a);
    this.metrics.observeLevel(cfg.level);
    return cfg;
  }

  /**
   * Hands one event to the backends. Only blocking-strict lets a failure at
   * RequestReceived fail the request; otherwise failures are logged and counted.
   */
  async emit(ev: AuditEvent): Promise<void> {
    try {
      await this.backend.process([ev]);
    } catch (err) {
      this.log.error({ err, auditID: ev.auditID }, 'error writing audit event');
      if (this.strict && ev.stage === 'RequestReceived') {
        this.metrics.rejected.inc();
        throw err;
      }
    }
  }

  shutdown(): Promise<void> {
    return this.backend.shutdown();
  }
}

export function buildAuditor(o: AuditOptions, registry: Registry, log: Logger): Auditor | undefined {
  if (!o.policyFile || (!o.log && !o.webhook)) return undefined;
  const checker = new PolicyChecker(loadPolicyFile(o.policyFile));
  const metrics = auditMetrics(registry);
  const onBatchError = (err: unknown) => log.error({ err }, 'error sending a batch of audit events');
  const moded = (b: Backend, m: BackendModeOptions): Backend => (m.mode === 'batch' ? new BufferedBackend(b, m.batch, metrics, onBatchError) : b);
  const backends: Backend[] = [];
  if (o.log) backends.push(moded(new LogBackend(o.log, metrics), o.log));
  if (o.webhook) backends.push(moded(new WebhookBackend(o.webhook.configFile, o.webhook.initialBackoffMs, metrics), o.webhook));
  const strict = [o.log, o.webhook].some((b) => b?.mode === 'blocking-strict');
  return new Auditor(checker, backends.length === 1 ? backends[0]! : new UnionBackend(backends), metrics, strict, log);
}

export type { Stage };
