// ValidatingAdmissionPolicy (with status) and ValidatingAdmissionPolicyBinding:
// cluster-scoped, DNS-subdomain names, generation tracked. The status endpoint is the
// type-checking controller's; its writes are checked only for well-formed warnings.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from '../../../apis/admissionregistration/policy-defaults.js';
import {
  validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding, validateValidatingAdmissionPolicyStatus,
} from '../../../apis/admissionregistration/policy-validation.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';

export class ValidatingAdmissionPolicyStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, tracksGeneration: true, hasStatus: true });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultValidatingAdmissionPolicy(obj);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateValidatingAdmissionPolicy(obj);
  }

  protected override validateObjectUpdate(obj: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    return ctx.subresource === 'status' ? validateValidatingAdmissionPolicyStatus(obj) : validateValidatingAdmissionPolicy(obj);
  }
}

export class ValidatingAdmissionPolicyBindingStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, tracksGeneration: true });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultValidatingAdmissionPolicyBinding(obj);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateValidatingAdmissionPolicyBinding(obj);
  }
}
