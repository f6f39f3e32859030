// CSIStorageCapacity: a class name, non-negative sizes; class and topology never change.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { invalid } from '../../../apis/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { validateNonNegativeQuantity } from '../../../apis/core/resources.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class CSIStorageCapacityStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain });
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const cls = typeof o.storageClassName === 'string' ? o.storageClassName : '';
    const errs = isDNS1123Subdomain(cls).map((msg) => invalid('storageClassName', cls, msg));
    if (o.capacity !== undefined) errs.push(...validateNonNegativeQuantity(o.capacity, 'capacity'));
    if (o.maximumVolumeSize !== undefined) errs.push(...validateNonNegativeQuantity(o.maximumVolumeSize, 'maximumVolumeSize'));
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    return [
      ...this.validateObject(o),
      ...validateImmutableField(o.storageClassName, old.storageClassName, 'storageClassName'),
      ...validateImmutableField(o.nodeTopology ?? null, old.nodeTopology ?? null, 'nodeTopology'),
    ];
  }
}
