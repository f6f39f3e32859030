// The authorization seam: request attributes in, allow / deny / no opinion out; and the
// rule resolver that enumerates what a user may do (SelfSubjectRulesReview).
import type { UserInfo } from '../authentication/user.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision =
  | { decision: 'allow'; reason: string; error?: string }
  | { decision: 'deny'; reason: string; error?: string }
  | { decision: 'noOpinion'; reason: string; error?: string };

export interface Authorizer {
  readonly name: string;
  authorize(attrs: Attributes): Promise<Decision>;
}

export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when a mode cannot enumerate its grants (webhook, node). */
  incomplete: boolean;
  error?: string;
}

export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}

/** Upstream's aggregate error text: one message alone, several as `[a, b]`. */
export function aggregateErrors(errs: string[]): string | undefined {
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/** Verbs that only read (upstream's IsReadOnly). */
export function isReadOnly(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}
