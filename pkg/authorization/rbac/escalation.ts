// Escalation prevention (upstream's RBAC storage wrappers): a user may only write a role,
// or bind one, whose permissions they already hold, unless they hold `escalate` (roles)
// or `bind` (the referenced role) or are in system:masters.
import type { AdmissionAttributes, AdmissionPlugin } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import { errors } from '../../runtime/errors.js';
import { goQuoteSlice } from '../../runtime/gofmt.js';
import type { KubeObject } from '../../runtime/object.js';
import type { Authorizer } from '../interfaces.js';
import { compactRules, compactString, covers } from './covers.js';
import type { RBACRuleResolver } from './resolver.js';
import { rbacGroup, type PolicyRule, type RoleRef } from './types.js';

const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];


/** Undefined when the user holds every rule in the namespace; else upstream's message. */
export function confirmNoEscalation(resolver: RBACRuleResolver, user: UserInfo, namespace: string,
  rules: PolicyRule[]): string | undefined {
  const owned = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(owned.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user "${user.name}" (groups=${goQuoteSlice(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (owned.errors.length) {
    const agg = owned.errors.length === 1 ? owned.errors[0] : `[${owned.errors.join(', ')}]`;
    msg += `; resolution errors: [${agg}]`;
  }
  return msg;
}

function privileged(user: UserInfo): boolean {
  return user.groups.includes('system:masters');
}

/** Fields the garbage collector writes; changing only these needs no escalation check. */
function onlyGCFieldsChanged(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const strip = (o: KubeObject): unknown => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, resourceVersion: _r, ...meta } = o.metadata;
    return JSON.stringify({ ...o, metadata: meta });
  };
  return strip(obj) === strip(old);
}

export class EscalationCheck implements AdmissionPlugin {
  readonly name = 'RBACEscalationPrevention';
  constructor(private readonly authorizer: Authorizer, private readonly resolver: RBACRuleResolver) {}

  handles(op: string): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  // Anything but an RBAC object (nearly every write) is answered without a promise.
  admit(a: AdmissionAttributes): Promise<void> | void {
    if (a.group !== rbacGroup || !a.object || privileged(a.user)) return;
    if (a.operation === 'UPDATE' && onlyGCFieldsChanged(a.object, a.oldObject)) return;
    switch (a.resource) {
      case 'roles':
      case 'clusterroles':
        return this.checkRole(a);
      case 'rolebindings':
      case 'clusterrolebindings':
        return this.checkBinding(a);
    }
  }

  private async checkRole(a: AdmissionAttributes): Promise<void> {
    // Upstream asks with the request's name, which a create (POST) does not have.
    const name = a.operation === 'UPDATE' ? a.name : '';
    const escalate = await this.authorizer.authorize({
      user: a.user, verb: 'escalate', isResourceRequest: true, path: '', namespace: a.namespace,
      apiGroup: a.group, apiVersion: '*', resource: a.resource, subresource: '', name,
    });
    if (escalate.decision === 'allow') return;
    const gr = { group: a.group, resource: a.resource };
    const rules = (a.object!.rules as PolicyRule[] | null | undefined) ?? [];
    const msg = confirmNoEscalation(this.resolver, a.user, a.namespace, rules);
    if (msg) throw errors.forbidden(gr, a.name, msg);
    const aggregated = (o: KubeObject | undefined): boolean => Boolean(o && o.aggregationRule);
    if (a.resource === 'clusterroles' && (aggregated(a.object) || (a.operation === 'UPDATE' && aggregated(a.oldObject)))) {
      if (confirmNoEscalation(this.resolver, a.user, a.namespace, fullAuthority)) {
        throw errors.forbidden(gr, a.name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  }

  private async checkBinding(a: AdmissionAttributes): Promise<void> {
    const ref = (a.object!.roleRef ?? {}) as RoleRef;
    if (await this.bindAuthorized(a.user, ref, a.namespace)) return;
    const res = this.resolver.getRoleReferenceRules(ref, a.namespace);
    const gr = { group: a.group, resource: a.resource };
    if ('error' in res) {
      const kind = ref.kind === 'Role' ? 'roles' : 'clusterroles';
      throw errors.notFound({ group: rbacGroup, resource: kind }, ref.name ?? '');
    }
    const msg = confirmNoEscalation(this.resolver, a.user, a.namespace, res.rules);
    if (msg) throw errors.forbidden(gr, a.name, msg);
  }

  private async bindAuthorized(user: UserInfo, ref: RoleRef, namespace: string): Promise<boolean> {
    const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : '';
    if (!resource) return false;
    const d = await this.authorizer.authorize({
      user, verb: 'bind', isResourceRequest: true, path: '', namespace, apiGroup: ref.apiGroup ?? '',
      apiVersion: '', resource, subresource: '', name: ref.name ?? '',
    });
    return d.decision === 'allow';
  }
}
