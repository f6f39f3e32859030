// Modes in order; the first allow or deny decides; all no-opinion is no opinion, with
// the reasons joined by newlines and the errors aggregated as upstream does.
import type { UserInfo } from '../../authentication/user.js';
import {
  aggregateErrors, type Attributes, type Authorizer, type Decision, type RuleResolver, type RulesResult,
} from '../interfaces.js';

export class UnionAuthorizer implements Authorizer {
  readonly name = 'union';
  constructor(private readonly members: Authorizer[]) {}

  async authorize(attrs: Attributes): Promise<Decision> {
    const reasons: string[] = [];
    const errs: string[] = [];
    for (const a of this.members) {
      const d = await a.authorize(attrs);
      if (d.error) errs.push(d.error);
      if (d.reason) reasons.push(d.reason);
      if (d.decision !== 'noOpinion') return d;
    }
    return { decision: 'noOpinion', reason: reasons.join('\n'), error: aggregateErrors(errs) };
  }
}

/** Every resolver's rules together; incomplete if any is. */
export class UnionRuleResolver implements RuleResolver {
  constructor(private readonly members: RuleResolver[]) {}

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errs: string[] = [];
    for (const r of this.members) {
      const res = await r.rulesFor(user, namespace);
      out.resourceRules.push(...res.resourceRules);
      out.nonResourceRules.push(...res.nonResourceRules);
      if (res.incomplete) out.incomplete = true;
      if (res.error) errs.push(res.error);
    }
    const error = aggregateErrors(errs);
    if (error) out.error = error;
    return out;
  }
}
