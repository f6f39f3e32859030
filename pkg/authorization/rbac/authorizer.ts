// The RBAC mode: allow when some rule reachable from the user's bindings allows the
// request; otherwise no opinion, with the evaluation errors as the reason.
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes, Authorizer, Decision, RuleResolver, RulesResult } from '../interfaces.js';
import { describeSource, type RBACRuleResolver } from './resolver.js';
import { ruleAllows } from './rules.js';

export class RBACAuthorizer implements Authorizer, RuleResolver {
  readonly name = 'RBAC';
  constructor(readonly resolver: RBACRuleResolver) {}

  async authorize(attrs: Attributes): Promise<Decision> {
    return this.decide(attrs);
  }

  /** Synchronous core, for callers (and the benchmark) that need no promise. */
  decide(attrs: Attributes): Decision {
    let reason = '';
    const errors: string[] = [];
    let allowed = false;
    this.resolver.visitRulesFor(attrs.user, attrs.namespace, (src, rule, err) => {
      if (rule && src && ruleAllows(attrs, rule)) {
        allowed = true;
        reason = `RBAC: allowed by ${describeSource(src)}`;
        return false;
      }
      if (err) errors.push(err);
      return true;
    });
    if (allowed) return { decision: 'allow', reason };
    return { decision: 'noOpinion', reason: errors.length ? `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}` : '' };
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const { rules, errors } = this.resolver.rulesFor(user, namespace);
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        out.resourceRules.push({ verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames ?? [] });
      }
      if ((r.nonResourceURLs ?? []).length > 0) {
        out.nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] });
      }
    }
    if (errors.length) out.error = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return out;
  }
}
