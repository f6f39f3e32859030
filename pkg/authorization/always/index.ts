import type { Authorizer, Decision } from '../interfaces.js';

export const alwaysAllow: Authorizer = {
  name: 'AlwaysAllow',
  async authorize(): Promise<Decision> { return { decision: 'allow', reason: '' }; },
};

export const alwaysDeny: Authorizer = {
  name: 'AlwaysDeny',
  async authorize(): Promise<Decision> { return { decision: 'noOpinion', reason: 'Everything is forbidden.' }; },
};

/** Upstream's privileged-group authorizer: system:masters may do anything. */
export const privilegedGroups: Authorizer = {
  name: 'privileged',
  async authorize(attrs): Promise<Decision> {
    return attrs.user.groups.includes('system:masters') ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: '' };
  },
};
