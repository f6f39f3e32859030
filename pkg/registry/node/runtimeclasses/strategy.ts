// RuntimeClass: a DNS-label handler (immutable), non-negative overhead, valid scheduling.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { invalid, key } from '../../../apis/validation/field.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField, validateLabels } from '../../../apis/validation/objectmeta.js';
import { resourceList, validateNonNegativeQuantity } from '../../../apis/core/resources.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class RuntimeClassStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain });
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const handler = typeof o.handler === 'string' ? o.handler : '';
    const errs: FieldError[] = isDNS1123Label(handler).map((msg) => invalid('handler', handler, msg));
    const overhead = isPlainObject(o.overhead) ? o.overhead : {};
    for (const [r, q] of Object.entries(resourceList(overhead.podFixed))) {
      errs.push(...validateNonNegativeQuantity(q, key('overhead.podFixed', r)));
    }
    const scheduling = isPlainObject(o.scheduling) ? o.scheduling : {};
    if (isPlainObject(scheduling.nodeSelector)) {
      errs.push(...validateLabels(scheduling.nodeSelector as Record<string, string>, 'scheduling.nodeSelector'));
    }
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    return [...this.validateObject(o), ...validateImmutableField(o.handler, old.handler, 'handler')];
  }
}
