// ResourceQuota: status starts empty (the quota controller fills it); hard limits are
// non-negative quantities of valid resource names; scopes are upstream's.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { index, invalid, key, notSupported } from '../../../apis/validation/field.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { resourceList, validateNonNegativeQuantity } from '../../../apis/core/resources.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export const quotaScopes = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating'];

export class ResourceQuotaStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    if (!isPlainObject(o.status)) o.status = {};
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = {};
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = isPlainObject(o.spec) ? o.spec : {};
    const status = isPlainObject(o.status) ? o.status : {};
    const errs: FieldError[] = [];
    for (const [path, list] of [['spec.hard', spec.hard], ['status.hard', status.hard], ['status.used', status.used]] as const) {
      for (const [r, q] of Object.entries(resourceList(list))) {
        for (const msg of isQualifiedName(r)) errs.push(invalid(key(path, r), r, msg));
        errs.push(...validateNonNegativeQuantity(q, key(path, r)));
      }
    }
    const scopes = Array.isArray(spec.scopes) ? spec.scopes : [];
    scopes.forEach((s, i) => {
      if (!quotaScopes.includes(s as string)) errs.push(notSupported(index('spec.scopes', i), s, quotaScopes));
    });
    return errs;
  }
}
