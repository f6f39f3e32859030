// What quota knows about one resource (upstream's quota.Evaluator): which quota
// resource names it measures, the usage one object is charged, which scopes an object
// falls in, and what an object must declare when a quota constrains it.
import type { Operation } from '../../admission/interfaces.js';
import type { KubeObject } from '../../runtime/object.js';
import type { ResourceList } from '../resources.js';

export type ScopeOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** A ResourceQuota's spec.scopes entry (operator Exists) or scopeSelector expression. */
export interface ScopeSelector {
  scopeName: string;
  operator: ScopeOperator;
  values?: string[];
}

export interface Evaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether a request of this operation (and subresource) can change usage. */
  handles(operation: Operation, subresource: string): boolean;
  /** The names among `names` this evaluator measures. */
  matchingResources(names: string[]): string[];
  /** Whether the object falls in the scope; kinds without scopes match none. */
  matchesScope(selector: ScopeSelector, obj: KubeObject): boolean;
  /** What the object is charged; `now` (ms) decides whether a deleting pod still counts. */
  usage(obj: KubeObject, now?: number): ResourceList;
  /** The reason the object cannot be admitted under quotas of `required`, if any. */
  constraints(required: string[], obj: KubeObject): string | undefined;
}
