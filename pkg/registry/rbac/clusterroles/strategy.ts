// ClusterRole: rules may name non-resource URLs; aggregationRule selectors are checked.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { hasInvalidLabelValueInSelector } from '../../../apis/validation/labelselector.js';
import { validateRBACName } from '../../../apis/validation/names.js';
import { validateAggregationRule, validateRules, type AggregationRule, type PolicyRule } from '../../../apis/validation/rbac.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { canonicalizeRules } from '../roles/strategy.js';

function aggregationRule(obj: KubeObject): AggregationRule | undefined {
  return isPlainObject(obj.aggregationRule) ? (obj.aggregationRule as AggregationRule) : undefined;
}

export class ClusterRoleStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: validateRBACName, allowCreateOnUpdate: true });
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return this.check(obj, false);
  }

  /** Selectors stored before label values were checked stay acceptable. */
  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    const grandfathered = (aggregationRule(old)?.clusterRoleSelectors ?? []).some((s) => hasInvalidLabelValueInSelector(s));
    return this.check(obj, grandfathered);
  }

  override canonicalize(obj: KubeObject): void {
    canonicalizeRules(obj);
  }

  private check(obj: KubeObject, allowInvalidLabelValues: boolean): FieldError[] {
    return [
      ...validateRules(obj.rules as PolicyRule[] | null | undefined, false),
      ...validateAggregationRule(aggregationRule(obj), allowInvalidLabelValues),
    ];
  }
}
