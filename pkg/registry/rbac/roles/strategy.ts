// Role and ClusterRole: path-segment names and upstream's PolicyRule rules.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { validateRBACName } from '../../../apis/validation/names.js';
import { validateRules, type PolicyRule } from '../../../apis/validation/rbac.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

/** `rules` has no omitempty upstream: a role without rules reads back as `rules: null`. */
export function canonicalizeRules(obj: KubeObject): void {
  if (obj.rules === undefined) obj.rules = null;
}

export class RoleStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: validateRBACName, allowCreateOnUpdate: true });
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateRules(obj.rules as PolicyRule[] | null | undefined, true);
  }

  override canonicalize(obj: KubeObject): void {
    canonicalizeRules(obj);
  }
}
