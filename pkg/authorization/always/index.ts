// The trivial modes, and upstream's privileged-group authorizer for system:masters.
import type { Authorizer, Decision, RuleResolver, RulesResult } from '../interfaces.js';

export const alwaysAllow: Authorizer & RuleResolver = {
  name: 'AlwaysAllow',
  async authorize(): Promise<Decision> { return { decision: 'allow', reason: '' }; },
  async rulesFor(): Promise<RulesResult> {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  },
};

export const alwaysDeny: Authorizer & RuleResolver = {
  name: 'AlwaysDeny',
  async authorize(): Promise<Decision> { return { decision: 'noOpinion', reason: 'Everything is forbidden.' }; },
  async rulesFor(): Promise<RulesResult> { return { resourceRules: [], nonResourceRules: [], incomplete: false }; },
};

/** Upstream's privileged-group authorizer: system:masters may do anything. */
export const privilegedGroups: Authorizer = {
  name: 'privileged',
  async authorize(attrs): Promise<Decision> {
    return attrs.user.groups.includes('system:masters') ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: '' };
  },
};
