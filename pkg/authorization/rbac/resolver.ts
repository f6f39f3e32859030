// Upstream's DefaultRuleResolver: walks the ClusterRoleBindings, then the RoleBindings
// of the request's namespace, resolving each applicable binding's roleRef to rules.
// Problems (an unresolvable roleRef, a subject that cannot be evaluated) are reported
// to the visitor as errors and never grant anything.
import { appliesTo } from './subjects.js';
import type { BindingObject, PolicyRule, PolicySource, RoleRef, Subject, UserLike } from './types.js';

/** Which binding granted a rule, worded as upstream's describers for the allow reason. */
export interface RuleSourceInfo {
  binding: BindingObject;
  subject: Subject;
  namespaced: boolean;
}

export function describeSource(s: RuleSourceInfo): string {
  const b = s.binding;
  const ns = b.metadata.namespace ?? '';
  const subj = describeSubject(s.subject, ns);
  if (s.namespaced) return `RoleBinding "${b.metadata.name}/${ns}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${subj}`;
  return `ClusterRoleBinding "${b.metadata.name}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${subj}`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `ServiceAccount "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

/** Returns false to stop the walk. */
export type RuleVisitor = (source: RuleSourceInfo | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

export type RoleRefResult = { rules: PolicyRule[] } | { error: string };

export class RBACRuleResolver {
  constructor(readonly source: PolicySource) {}

  getRoleReferenceRules(ref: RoleRef, bindingNamespace: string): RoleRefResult {
    if (ref.kind === 'Role') {
      const role = this.source.getRole(bindingNamespace, ref.name ?? '');
      return role ? { rules: role.rules ?? [] } : { error: `role.rbac.authorization.k8s.io "${ref.name ?? ''}" not found` };
    }
    if (ref.kind === 'ClusterRole') {
      const role = this.source.getClusterRole(ref.name ?? '');
      return role ? { rules: role.rules ?? [] } : { error: `clusterrole.rbac.authorization.k8s.io "${ref.name ?? ''}" not found` };
    }
    return { error: `unsupported role reference kind: "${ref.kind ?? ''}"` };
  }

  visitRulesFor(user: UserLike, namespace: string, visit: RuleVisitor): void {
    if (!this.visitBindings(user, '', this.source.clusterRoleBindingsFor(user), false, visit)) return;
    if (namespace) this.visitBindings(user, namespace, this.source.roleBindingsFor(namespace, user), true, visit);
  }

  /** Every rule that applies to the user in the namespace, and the errors met on the way. */
  rulesFor(user: UserLike, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  private visitBindings(user: UserLike, namespace: string, bindings: Iterable<BindingObject>, namespaced: boolean,
    visit: RuleVisitor): boolean {
    for (const b of bindings) {
      const { index, errors } = appliesTo(user, b.subjects, namespace);
      for (const e of errors) if (!visit(undefined, undefined, e)) return false;
      if (index < 0) continue;
      const res = this.getRoleReferenceRules(b.roleRef ?? {}, namespace);
      if ('error' in res) {
        if (!visit(undefined, undefined, res.error)) return false;
        continue;
      }
      const src: RuleSourceInfo = { binding: b, subject: b.subjects![index], namespaced };
      for (const r of res.rules) if (!visit(src, r, undefined)) return false;
    }
    return true;
  }
}
