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
  /**
   * When the plugin acts only on some resources ('group/resource', '' for the core group,
   * any subresource): the chain records it for any other resource, as having taken no
   * time, without calling it. Upstream calls every plugin that handles the operation and
   * each declines what is not its own; the metrics count the same calls either way.
   */
  resources?: ReadonlySet<string>;
  /** Mutating phase: may change attrs.object in place; throws StatusError to reject. */
  admit?(attrs: AdmissionAttributes): Promise<void>;
  /** Validating phase: throws StatusError to reject. */
  validate?(attrs: AdmissionAttributes): Promise<void>;
}

export interface Admission {
  admit(attrs: AdmissionAttributes): Promise<void>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

type Phase = 'admit' | 'validate';

/**
 * The admission latency metrics: a recorder of how long one plugin (or, `plugin`
 * undefined, a whole phase) took for one operation and phase, and whether it refused.
 */
export type AdmissionObserver = (plugin: string | undefined, operation: Operation, type: Phase) => Recorder;

type Recorder = (rejected: boolean, seconds: number) => void;
const unrecorded: Recorder = () => undefined;

/**
 * What one phase of one operation runs: its plugins in order, each with its recorder.
 * Each plugin's phase method and resource set are looked up once here: read per request
 * (`plugin[type]`, `plugin.resources`) over twenty plugin classes, they were megamorphic
 * loads on every write.
 */
interface Steps {
  calls: Array<(attrs: AdmissionAttributes) => Promise<void>>;
  only: Array<ReadonlySet<string> | undefined>;
  records: Recorder[];
  phase: Recorder;
}

/** Runs plugins in order; the first rejection wins. */
export class AdmissionChain implements Admission {
  /** Per phase and operation: which plugins take part never changes, nor their label sets. */
  private readonly steps = new Map<string, Steps>();

  constructor(private readonly plugins: AdmissionPlugin[] = [], private readonly observe?: AdmissionObserver) {}

  // run's own promise, not an async wrapper awaiting it: one microtask turn less a phase.
  admit(attrs: AdmissionAttributes): Promise<void> {
    return this.run('admit', attrs);
  }

  validate(attrs: AdmissionAttributes): Promise<void> {
    return this.run('validate', attrs);
  }

  private stepsFor(type: Phase, operation: Operation): Steps {
    const key = `${type} ${operation}`;
    let steps = this.steps.get(key);
    if (!steps) {
      const plugins = this.plugins.filter((p) => p[type] && p.handles(operation));
      const observe = this.observe;
      steps = {
        calls: plugins.map((p) => p[type]!.bind(p)),
        only: plugins.map((p) => p.resources),
        records: plugins.map((p) => observe?.(p.name, operation, type) ?? unrecorded),
        phase: observe?.(undefined, operation, type) ?? unrecorded,
      };
      this.steps.set(key, steps);
    }
    return steps;
  }

  private async run(type: Phase, attrs: AdmissionAttributes): Promise<void> {
    const { calls, only, records, phase } = this.stepsFor(type, attrs.operation);
    if (!this.observe) {
      for (const call of calls) await call(attrs);
      return;
    }
    // performance.now(): a float, where hrtime.bigint() made two BigInts per plugin.
    const stepStart = performance.now();
    // Most of the default plugins act on one kind or two (pods, claims, CSRs...): calling
    // each, awaiting it and timing it was most of the chain's cost for any other write.
    const resource = `${attrs.group}/${attrs.resource}`;
    let rejected = false;
    try {
      for (let i = 0; i < calls.length; i++) {
        const resources = only[i];
        if (resources !== undefined && !resources.has(resource)) {
          records[i]!(false, 0);
          continue;
        }
        const start = performance.now();
        try {
          await calls[i]!(attrs);
        } catch (err) {
          rejected = true;
          throw err;
        } finally {
          records[i]!(rejected, (performance.now() - start) / 1e3);
        }
      }
    } finally {
      phase(rejected, (performance.now() - stepStart) / 1e3);
    }
  }
}
