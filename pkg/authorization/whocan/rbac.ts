// RBAC's subjects for an action: every subject of every binding (ClusterRoleBindings,
// and the RoleBindings of the action's namespace) whose role allows it. It reads the
// same watch-fed PolicyIndex the authorizer reads, and judges each subject exactly as
// the authorizer's subject matching does, so a subject listed here is one a
// SubjectAccessReview would allow, and no other.
import type { PolicyIndex } from '../rbac/index.js';
import type { RBACRuleResolver } from '../rbac/resolver.js';
import { ruleAllows } from '../rbac/rules.js';
import { serviceAccountPrefix } from '../rbac/subjects.js';
import type { BindingObject, Subject } from '../rbac/types.js';
import { noSubjects, type Action, type AllowedSubjects, type SubjectLocator } from './interfaces.js';

const nobody = { name: '', groups: [] as string[] };

export class RBACSubjectLocator implements SubjectLocator {
  constructor(private readonly policy: PolicyIndex, private readonly resolver: RBACRuleResolver) {}

  async allowedSubjects(action: Action): Promise<AllowedSubjects> {
    return this.locate(action);
  }

  /** Synchronous core, for the benchmark and the property test. */
  locate(action: Action): AllowedSubjects {
    const out = noSubjects();
    const attrs = { ...action, user: nobody };
    // The index groups bindings by role: each role is judged once per answer, and only
    // the bindings of roles that allow the action are read further.
    const visit = (groups: Iterable<Map<string, BindingObject>>, namespace: string): void => {
      for (const bindings of groups) {
        const first = bindings.values().next().value;
        if (!first) continue;
        const res = this.resolver.getRoleReferenceRules(first.roleRef ?? {}, namespace);
        if ('error' in res) { addError(out, res.error); continue; }
        if (!res.rules.some((r) => ruleAllows(attrs, r))) continue;
        for (const b of bindings.values()) for (const s of b.subjects ?? []) addSubject(out, s ?? {}, namespace);
      }
    };
    visit(this.policy.clusterRoleBindingsByRole(), '');
    if (action.namespace) visit(this.policy.roleBindingsByRoleIn(action.namespace), action.namespace);
    return out;
  }
}

/** A subject as the identity it names; the ones the authorizer cannot evaluate grant nothing. */
function addSubject(out: AllowedSubjects, s: Subject, bindingNamespace: string): void {
  switch (s.kind) {
    case 'User':
    case 'Group':
      if (s.namespace) { addError(out, `${s.kind} subject "${s.name}" must not have a namespace (found "${s.namespace}")`); return; }
      if (s.name) (s.kind === 'User' ? out.users : out.groups).add(s.name);
      return;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      if (ns) out.users.add(`${serviceAccountPrefix}${ns}:${s.name}`);
      return;
    }
    default:
      addError(out, `unknown subject kind "${s.kind ?? ''}" for subject "${s.name ?? ''}"`);
  }
}

function addError(out: AllowedSubjects, e: string): void {
  if (!out.errors.includes(e)) out.errors.push(e);
}
