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
  /**
   * Mutating phase: may change attrs.object in place; throws StatusError to reject. A
   * plugin with nothing to do for the request may return nothing: the chain then goes on
   * without a turn of the microtask queue.
   */
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  /** Validating phase: throws StatusError to reject (returns nothing when done at once, as admit). */
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
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

type Call = (attrs: AdmissionAttributes) => Promise<void> | void;

/**
 * What one phase of one operation on one resource runs: every plugin that handles the
 * operation, in order, with its recorder, and its phase method where it can act on the
 * resource (undefined: recorded as having taken no time, never called). Built once per
 * phase, operation and resource: the method and resource set read per request over twenty
 * plugin classes were megamorphic loads on every write, and the resource test a set
 * lookup per plugin.
 */
interface Steps {
  calls: Array<Call | undefined>;
  records: Recorder[];
  phase: Recorder;
}

const settled: Promise<void> = Promise.resolve();
const secondsSince = (start: number): number => (performance.now() - start) / 1e3;

/** Runs plugins in order; the first rejection wins. */
export class AdmissionChain implements Admission {
  private readonly steps = { admit: new Map<Operation, Map<string, Steps>>(), validate: new Map<Operation, Map<string, Steps>>() };

  constructor(private readonly plugins: AdmissionPlugin[] = [], private readonly observe?: AdmissionObserver) {}

  // run's own promise, not an async wrapper awaiting it: one microtask turn less a phase.
  admit(attrs: AdmissionAttributes): Promise<void> {
    return this.run('admit', attrs);
  }

  validate(attrs: AdmissionAttributes): Promise<void> {
    return this.run('validate', attrs);
  }

  private stepsFor(type: Phase, operation: Operation, resource: string): Steps {
    let byResource = this.steps[type].get(operation);
    if (!byResource) {
      byResource = new Map();
      this.steps[type].set(operation, byResource);
    }
    let steps = byResource.get(resource);
    if (!steps) {
      const plugins = this.plugins.filter((p) => p[type] && p.handles(operation));
      const observe = this.observe;
      steps = {
        calls: plugins.map((p) => (p.resources === undefined || p.resources.has(resource) ? p[type]!.bind(p) : undefined)),
        records: plugins.map((p) => observe?.(p.name, operation, type) ?? unrecorded),
        phase: observe?.(undefined, operation, type) ?? unrecorded,
      };
      byResource.set(resource, steps);
    }
    return steps;
  }

  /**
   * Plugins that finish at once (most decline most requests) are run without awaiting
   * anything; at the first that returns a promise the rest continue in `runRest`.
   */
  private run(type: Phase, attrs: AdmissionAttributes): Promise<void> {
    const steps = this.stepsFor(type, attrs.operation, `${attrs.group}/${attrs.resource}`);
    const { calls, records } = steps;
    // performance.now(): a float, where hrtime.bigint() made two BigInts per plugin.
    const phaseStart = performance.now();
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      if (call === undefined) {
        records[i]!(false, 0);
        continue;
      }
      const start = performance.now();
      let pending: Promise<void> | void;
      try {
        pending = call(attrs);
      } catch (err) {
        records[i]!(true, secondsSince(start));
        steps.phase(true, secondsSince(phaseStart));
        return Promise.reject(err);
      }
      if (pending !== undefined) return this.runRest(steps, i, pending, start, attrs, phaseStart);
      records[i]!(false, secondsSince(start));
    }
    steps.phase(false, secondsSince(phaseStart));
    return settled;
  }

  /** The rest of a phase from plugin `i`, whose work is `pending`. */
  private async runRest(steps: Steps, i: number, pending: Promise<void> | void, start: number, attrs: AdmissionAttributes, phaseStart: number): Promise<void> {
    const { calls, records } = steps;
    let rejected = false;
    try {
      for (;;) {
        try {
          if (pending !== undefined) await pending;
        } catch (err) {
          rejected = true;
          throw err;
        } finally {
          records[i]!(rejected, secondsSince(start));
        }
        let call: Call | undefined;
        while (++i < calls.length && (call = calls[i]) === undefined) records[i]!(false, 0);
        if (i >= calls.length) return;
        start = performance.now();
        try {
          pending = call!(attrs);
        } catch (err) {
          pending = Promise.reject(err);
        }
      }
    } finally {
      steps.phase(rejected, secondsSince(phaseStart));
    }
  }
}
