// The seam for webhook matchConditions (CEL). pkg/cel/matchconditions.ts provides the
// compiler and the server installs it with setMatchConditionCompiler. Until one is
// installed, a webhook with matchConditions is treated as matching: calling a webhook
// too often is safer than silently skipping one that enforces policy.
import type { UserInfo } from '../../../authentication/user.js';
import type { Authorizer } from '../../../authorization/interfaces.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { MatchCondition } from './types.js';

export interface MatchConditionInput {
  object: KubeObject | null;
  oldObject: KubeObject | null;
  /** The AdmissionRequest as sent to the webhook (minus object and oldObject). */
  request: Record<string, unknown> & { userInfo?: Partial<UserInfo> | Record<string, unknown> };
  authorizer?: Authorizer;
}

/**
 * Upstream's matcher semantics: resolves false when any condition is false (even if
 * another failed to evaluate), true when all are true, and rejects with the aggregated
 * evaluation error otherwise. The webhook's failurePolicy is applied by the caller:
 * Ignore skips the webhook, Fail rejects the request as Forbidden with that error.
 */
export type MatchConditionEvaluator = (input: MatchConditionInput) => Promise<boolean>;

export type MatchConditionCompiler = (conditions: MatchCondition[]) => MatchConditionEvaluator;

let compiler: MatchConditionCompiler | undefined;

export function setMatchConditionCompiler(fn: MatchConditionCompiler | undefined): void {
  compiler = fn;
}

/** undefined: nothing to evaluate (no conditions, or no compiler installed). */
export function compileMatchConditions(conditions: MatchCondition[] | undefined): MatchConditionEvaluator | undefined {
  if (!conditions || conditions.length === 0 || !compiler) return undefined;
  return compiler(conditions);
}
