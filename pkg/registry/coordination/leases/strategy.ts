// Lease: name format and non-negative durations. Writes must be conditional (leader
// election relies on resourceVersion), but a PUT may create.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { invalid } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class LeaseStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, allowCreateOnUpdate: true, allowUnconditionalUpdate: false });
  }

  override applyDefaults(obj: KubeObject): void {
    if (!isPlainObject(obj.spec)) obj.spec = {};
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const errs: FieldError[] = [];
    const duration = spec.leaseDurationSeconds;
    if (typeof duration === 'number' && duration <= 0) {
      errs.push(invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
    }
    const transitions = spec.leaseTransitions;
    if (typeof transitions === 'number' && transitions < 0) {
      errs.push(invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
    }
    return errs;
  }
}
