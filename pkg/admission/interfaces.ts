// The admission seam. The generic registry calls the chain at upstream's points:
// mutating admission before validation, validating admission after it, both with the
// same attributes. pkg/server/admission.ts builds the chain from the flags, in the
// order of ordered.ts.
import type { UserInfo } from '../authentication/user.js';
import type { KubeObject } from '../runtime/object.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  version: string;
  kind: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  object?: KubeObject;
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /** The request's CreateOptions / UpdateOptions / DeleteOptions (webhooks receive them). */
  options?: Record<string, unknown>;
  /** Sink for the response's Warning headers. */
  warnings?: string[];
  /** Sink for the request's audit annotations (key → value). */
  auditAnnotations?: Record<string, string>;
}

export interface AdmissionPlugin {
  /** Upstream's plugin name (ordered.ts). */
  name: string;
  handles(op: Operation): boolean;
  /** Mutating phase: may change attrs.object in place; throws StatusError to reject. */
  admit?(attrs: AdmissionAttributes): Promise<void>;
  /** Validating phase: throws StatusError to reject. */
  validate?(attrs: AdmissionAttributes): Promise<void>;
}

export interface Admission {
  admit(attrs: AdmissionAttributes): Promise<void>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

/** Told how long each phase and each plugin took (the admission latency metrics). */
export type AdmissionObserver = (plugin: string | undefined, labels: { operation: Operation; rejected: boolean; type: 'admit' | 'validate' }, seconds: number) => void;

/** Runs plugins in order; the first rejection wins. */
export class AdmissionChain implements Admission {
  constructor(private readonly plugins: AdmissionPlugin[] = [], private readonly observe?: AdmissionObserver) {}

  async admit(attrs: AdmissionAttributes): Promise<void> {
    await this.run('admit', attrs);
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    await this.run('validate', attrs);
  }

  private async run(type: 'admit' | 'validate', attrs: AdmissionAttributes): Promise<void> {
    const observe = this.observe;
    if (!observe) {
      for (const p of this.plugins) if (p[type] && p.handles(attrs.operation)) await p[type]!(attrs);
      return;
    }
    const stepStart = process.hrtime.bigint();
    const since = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e9;
    let rejected = false;
    try {
      for (const p of this.plugins) {
        if (!p[type] || !p.handles(attrs.operation)) continue;
        const start = process.hrtime.bigint();
        try {
          await p[type]!(attrs);
        } catch (err) {
          rejected = true;
          throw err;
        } finally {
          observe(p.name, { operation: attrs.operation, rejected, type }, since(start));
        }
      }
    } finally {
      observe(undefined, { operation: attrs.operation, rejected, type }, since(stepStart));
    }
  }
}
