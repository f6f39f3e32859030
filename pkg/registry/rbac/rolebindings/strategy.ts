// RoleBinding and ClusterRoleBinding: roleRef (immutable) and subjects.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { validateRBACName } from '../../../apis/validation/names.js';
import {
  defaultBinding, validateRoleRef, validateRoleRefUnchanged, validateSubjects, type RoleRef, type Subject,
} from '../../../apis/validation/rbac.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class BindingStrategy extends BaseStrategy {
  /** A RoleBinding may point at a Role or a ClusterRole; a ClusterRoleBinding only at a ClusterRole. */
  constructor(private readonly namespacedBinding: boolean) {
    super({ namespaced: namespacedBinding, nameValidator: validateRBACName, allowCreateOnUpdate: true });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultBinding(obj);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const kinds = this.namespacedBinding ? ['Role', 'ClusterRole'] : ['ClusterRole'];
    return [
      ...validateRoleRef(obj.roleRef as RoleRef | undefined, kinds),
      ...validateSubjects(obj.subjects as Subject[] | null | undefined, this.namespacedBinding),
    ];
  }

  /** To point a binding at another role, delete and recreate it. */
  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    return [
      ...this.validateObject(obj),
      ...validateRoleRefUnchanged(obj.roleRef as RoleRef | undefined, old.roleRef as RoleRef | undefined),
    ];
  }
}
