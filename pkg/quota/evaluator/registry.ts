// The evaluator for each resource: the kinds with their own rules, the legacy object
// counts, and a plain `count/<resource>.<group>` evaluator for anything else.
import type { Evaluator } from './interfaces.js';
import { ObjectCountEvaluator } from './objectcount.js';
import { PodEvaluator } from './pods.js';
import { PersistentVolumeClaimEvaluator } from './pvcs.js';
import { ServiceEvaluator } from './services.js';

/** Virtual resources that are never stored, and events, which quota never counted. */
const ignored = new Set([
  '/bindings', '/componentstatuses', '/events', 'events.k8s.io/events',
  'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews',
]);

export class EvaluatorRegistry {
  private readonly evaluators = new Map<string, Evaluator>();
  private readonly own: Evaluator[];

  constructor() {
    this.own = [
      new PodEvaluator(), new ServiceEvaluator(), new PersistentVolumeClaimEvaluator(),
      new ObjectCountEvaluator('', 'configmaps', 'configmaps'),
      new ObjectCountEvaluator('', 'resourcequotas', 'resourcequotas'),
      new ObjectCountEvaluator('', 'replicationcontrollers', 'replicationcontrollers'),
      new ObjectCountEvaluator('', 'secrets', 'secrets'),
    ];
    for (const e of this.own) this.evaluators.set(`${e.group}/${e.resource}`, e);
  }

  isIgnored(group: string, resource: string): boolean {
    return ignored.has(`${group}/${resource}`);
  }

  /** The evaluator of a resource, made on first use for plain object counting. */
  get(group: string, resource: string): Evaluator {
    const key = `${group}/${resource}`;
    let e = this.evaluators.get(key);
    if (!e) {
      e = new ObjectCountEvaluator(group, resource);
      this.evaluators.set(key, e);
    }
    return e;
  }

  /** The evaluators registered up front (the controller always watches their kinds). */
  builtIn(): Evaluator[] {
    return [...this.own];
  }
}
