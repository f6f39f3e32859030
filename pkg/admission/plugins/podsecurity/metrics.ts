// pod-security-admission's metrics, with upstream's names, labels and help texts.
import { Counter, type Registry } from 'prom-client';
import type { AdmissionAttributes } from '../../interfaces.js';
import { latest, versionString, type LevelVersion, type Mode } from './api.js';

/** The server's own minor: policy versions past it are reported as "future". */
const serverMinor = 28;

export interface Recorder {
  evaluation(decision: 'allow' | 'deny', policy: LevelVersion, mode: Mode, a: AdmissionAttributes): void;
  exemption(a: AdmissionAttributes): void;
  error(fatal: boolean, a: AdmissionAttributes): void;
}

export const noMetrics: Recorder = { evaluation() {}, exemption() {}, error() {} };

type Evaluations = 'decision' | 'policy_level' | 'policy_version' | 'mode' | 'request_operation' | 'resource' | 'subresource';

class PrometheusRecorder implements Recorder {
  private readonly evaluations: Counter<Evaluations>;
  private readonly exemptions: Counter<'request_operation' | 'resource' | 'subresource'>;
  private readonly errors: Counter<'fatal' | 'request_operation' | 'resource' | 'subresource'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.evaluations = new Counter({
      name: 'pod_security_evaluations_total', registers,
      help: '[ALPHA] Number of policy evaluations that occurred, not counting ignored or exempt requests.',
      labelNames: ['decision', 'policy_level', 'policy_version', 'mode', 'request_operation', 'resource', 'subresource'],
    });
    this.exemptions = new Counter({
      name: 'pod_security_exemptions_total', registers,
      help: '[ALPHA] Number of exempt requests, not counting ignored or out of scope requests.',
      labelNames: ['request_operation', 'resource', 'subresource'],
    });
    this.errors = new Counter({
      name: 'pod_security_errors_total', registers,
      help: '[ALPHA] Number of errors prevent normal evaluation. Non-fatal errors are evaluated against a default policy.',
      labelNames: ['fatal', 'request_operation', 'resource', 'subresource'],
    });
  }

  evaluation(decision: 'allow' | 'deny', policy: LevelVersion, mode: Mode, a: AdmissionAttributes): void {
    const version = policy.version === latest ? 'latest' : policy.version <= serverMinor ? versionString(policy.version) : 'future';
    this.evaluations.inc({ decision, policy_level: policy.level, policy_version: version, mode, ...request(a) });
  }

  exemption(a: AdmissionAttributes): void {
    this.exemptions.inc(request(a));
  }

  error(fatal: boolean, a: AdmissionAttributes): void {
    this.errors.inc({ fatal: String(fatal), ...request(a) });
  }
}

function request(a: AdmissionAttributes): { request_operation: string; resource: string; subresource: string } {
  const resource = a.group === '' && a.resource === 'pods' ? 'pod' : 'controller';
  return { request_operation: a.operation.toLowerCase(), resource, subresource: a.subresource };
}

const byRegistry = new WeakMap<Registry, Recorder>();

/** One recorder per registry (several replicas in one test process share a registry). */
export function podSecurityMetrics(registry: Registry): Recorder {
  let r = byRegistry.get(registry);
  if (!r) { r = new PrometheusRecorder(registry); byRegistry.set(registry, r); }
  return r;
}
