// APIService (kube-aggregator): name is <version>.<group>, priorities in range, a local
// service has no TLS settings. Status is only written through /status.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { invalid, required } from '../../../apis/validation/field.js';
import { isDNS1035Label, isDNS1123Subdomain, validatePathSegmentName } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class APIServiceStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: validatePathSegmentName, hasStatus: true });
  }

  override applyDefaults(obj: KubeObject): void {
    const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
    if (spec && isPlainObject(spec.service)) spec.service.port ??= 443;
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    obj.status = {};
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const group = typeof spec.group === 'string' ? spec.group : '';
    const version = typeof spec.version === 'string' ? spec.version : '';
    const errs: FieldError[] = [];
    const requiredName = `${version}.${group}`;
    if (obj.metadata.name !== undefined && obj.metadata.name !== requiredName) {
      errs.push(invalid('metadata.name', obj.metadata.name, `must be \`spec.version+"."+spec.group\`: "${requiredName}"`));
    }
    if (group === '' && version !== 'v1') {
      errs.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
    }
    if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(invalid('spec.group', group, m));
    for (const m of isDNS1035Label(version)) errs.push(invalid('spec.version', version, m));
    const gpm = typeof spec.groupPriorityMinimum === 'number' ? spec.groupPriorityMinimum : 0;
    if (gpm <= 0 || gpm > 20000) errs.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
    const vp = typeof spec.versionPriority === 'number' ? spec.versionPriority : 0;
    if (vp <= 0 || vp > 1000) errs.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
    const caBundle = typeof spec.caBundle === 'string' ? Buffer.from(spec.caBundle, 'base64') : Buffer.alloc(0);
    const skip = spec.insecureSkipTLSVerify === true;
    if (!isPlainObject(spec.service)) {
      if (caBundle.length > 0) errs.push(invalid('spec.caBundle', `${caBundle.length} bytes`, 'local APIServices may not have a caBundle'));
      if (skip) errs.push(invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
      return errs;
    }
    const svc = spec.service;
    if (!svc.namespace) errs.push(required('spec.service.namespace'));
    if (!svc.name) errs.push(required('spec.service.name'));
    const port = typeof svc.port === 'number' ? svc.port : 0;
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      errs.push(invalid('spec.service.port', port, 'port is not valid: must be between 1 and 65535, inclusive'));
    }
    if (skip && caBundle.length > 0) errs.push(invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
    return errs;
  }
}
