// LimitRange: a Container item's default comes from max, its defaultRequest from default
// then min (upstream's SetDefaults_LimitRangeItem); quantities are checked for order.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { index, invalid, key, required } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { resourceList, validateNonNegativeQuantity } from '../../../apis/core/resources.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

const lists = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

export class LimitRangeStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    const spec = o.spec as Record<string, unknown>;
    if (!Array.isArray(spec.limits)) return;
    for (const item of spec.limits) {
      if (!isPlainObject(item) || item.type !== 'Container') continue;
      const def: Record<string, unknown> = { ...resourceList(item.default) };
      const req: Record<string, unknown> = { ...resourceList(item.defaultRequest) };
      for (const [r, q] of Object.entries(resourceList(item.max))) if (!(r in def)) def[r] = q;
      for (const [r, q] of Object.entries(def)) if (!(r in req)) req[r] = q;
      for (const [r, q] of Object.entries(resourceList(item.min))) if (!(r in req)) req[r] = q;
      // Empty lists are omitted, as Go's omitempty does.
      if (Object.keys(def).length > 0) item.default = def;
      if (Object.keys(req).length > 0) item.defaultRequest = req;
    }
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = isPlainObject(o.spec) ? o.spec : {};
    const limits = Array.isArray(spec.limits) ? spec.limits : [];
    const errs: FieldError[] = [];
    const seenTypes = new Set<string>();
    limits.forEach((raw, i) => {
      const item = isPlainObject(raw) ? raw : {};
      const p = index('spec.limits', i);
      const type = typeof item.type === 'string' ? item.type : '';
      if (seenTypes.has(type)) errs.push(invalid(`${p}.type`, type, 'Duplicate value'));
      seenTypes.add(type);
      if (type === '') errs.push(required(`${p}.type`));
      for (const l of lists) {
        for (const [r, q] of Object.entries(resourceList(item[l]))) errs.push(...validateNonNegativeQuantity(q, key(`${p}.${l}`, r)));
      }
    });
    return errs;
  }
}
