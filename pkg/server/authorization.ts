// Builds the union of authorizers from --authorization-mode (SPEC 5.14), in the order
// given, after upstream's privileged-group authorizer for system:masters; the matching
// rule resolvers for SelfSubjectRulesReview; and RBAC escalation prevention, which
// guards writes of the four RBAC kinds whatever the modes are (as upstream's RBAC
// storage does).
import { ABACAuthorizer } from '../authorization/abac/index.js';
import { alwaysAllow, alwaysDeny, privilegedGroups } from '../authorization/always/index.js';
import type { Authorizer, RuleResolver } from '../authorization/interfaces.js';
import { NodeAuthorizer } from '../authorization/node/index.js';
import { RBACAuthorizer } from '../authorization/rbac/authorizer.js';
import { EscalationCheck } from '../authorization/rbac/escalation.js';
import { PolicyIndex } from '../authorization/rbac/index.js';
import { RBACRuleResolver } from '../authorization/rbac/resolver.js';
import { UnionAuthorizer, UnionRuleResolver } from '../authorization/union/index.js';
import { WebhookAuthorizer } from '../authorization/webhook/index.js';
import { loadWebhookConnection } from '../authorization/webhook/kubeconfig.js';
import type { SubjectLocator } from '../authorization/whocan/interfaces.js';
import { alwaysAllowLocator, alwaysDenyLocator, cannotEnumerate, privilegedGroupsLocator } from '../authorization/whocan/modes.js';
import { NodeSubjectLocator } from '../authorization/whocan/node.js';
import { RBACSubjectLocator } from '../authorization/whocan/rbac.js';
import { UnionSubjectLocator } from '../authorization/whocan/union.js';
import type { Admission, AdmissionAttributes, AdmissionPlugin } from '../admission/interfaces.js';
import { nodeRules } from '../bootstrappolicy/index.js';
import type { ServerDeps } from './deps.js';

export interface Authorization {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
  /** The RBAC index every replica keeps (also read by escalation checks). */
  policy: PolicyIndex;
  /** Who may do an action, through the same modes (ResourceAccessReview). */
  subjectLocator: SubjectLocator;
  /** Wraps the admission chain so RBAC writes are checked for escalation first. */
  guard(admission: Admission): Admission;
}

export async function buildAuthorization(d: ServerDeps): Promise<Authorization> {
  const { o } = d;
  const policy = new PolicyIndex();
  policy.attach(d.informers);
  const rbacResolver = new RBACRuleResolver(policy);
  const members: Authorizer[] = [privilegedGroups];
  const resolvers: RuleResolver[] = [];
  const locators: SubjectLocator[] = [privilegedGroupsLocator];
  for (const m of o.authorizationModes) {
    let a: Authorizer & RuleResolver;
    switch (m) {
      case 'AlwaysAllow': a = alwaysAllow; locators.push(alwaysAllowLocator); break;
      case 'AlwaysDeny': a = alwaysDeny; locators.push(alwaysDenyLocator); break;
      case 'RBAC': a = new RBACAuthorizer(rbacResolver); locators.push(new RBACSubjectLocator(policy, rbacResolver)); break;
      case 'ABAC': a = ABACAuthorizer.fromFile(o.authorizationPolicyFile!); locators.push(cannotEnumerate(m)); break;
      case 'Webhook':
        locators.push(cannotEnumerate(m));
        a = new WebhookAuthorizer({
          connection: loadWebhookConnection(o.authorizationWebhookConfigFile!),
          version: o.authorizationWebhookVersion === 'v1' ? 'v1' : 'v1beta1',
          authorizedTTLMs: o.authorizationWebhookCacheAuthorizedTTLMs,
          unauthorizedTTLMs: o.authorizationWebhookCacheUnauthorizedTTLMs,
          log: d.log,
        });
        break;
      case 'Node': {
        const node = new NodeAuthorizer(nodeRules);
        node.attach(d.informers);
        a = node;
        locators.push(new NodeSubjectLocator(node));
        break;
      }
      default: throw new Error(`authorization mode "${m}" is not a valid mode`);
    }
    members.push(a);
    resolvers.push(a);
  }
  const authorizer = new UnionAuthorizer(members);
  const escalation = new EscalationCheck(authorizer, rbacResolver);
  return {
    authorizer,
    ruleResolver: new UnionRuleResolver(resolvers),
    policy,
    subjectLocator: new UnionSubjectLocator(locators),
    guard: (admission) => prepend(escalation, admission),
  };
}

/** Kept for callers that only need the decision maker. */
export async function buildAuthorizer(d: ServerDeps): Promise<Authorizer> {
  return (await buildAuthorization(d)).authorizer;
}

/**
 * `plugin` before the chain's mutating phase. The chain's own promises are handed on, not
 * awaited inside another async function: each such wrapper was one more promise and
 * microtask turn per phase of every write.
 */
function prepend(plugin: AdmissionPlugin, rest: Admission): Admission {
  return {
    admit(a: AdmissionAttributes): Promise<void> {
      let first: Promise<void> | void;
      try {
        first = plugin.handles(a.operation) ? plugin.admit?.(a) : undefined;
      } catch (err) {
        return Promise.reject(err);
      }
      return first === undefined ? rest.admit(a) : first.then(() => rest.admit(a));
    },
    validate: (a: AdmissionAttributes) => rest.validate(a),
  };
}
