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

/** Runs plugins in order; the first rejection wins. */
export class AdmissionChain implements Admission {
  constructor(private readonly plugins: AdmissionPlugin[] = []) {}

  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.admit && p.handles(attrs.operation)) await p.admit(attrs);
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.validate && p.handles(attrs.operation)) await p.validate(attrs);
  }
}
