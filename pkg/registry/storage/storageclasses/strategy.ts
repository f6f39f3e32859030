// StorageClass: reclaimPolicy Delete and volumeBindingMode Immediate by default; the
// provisioner, parameters, reclaimPolicy and binding mode never change.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { forbidden, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];
const maxParametersSize = 256 * 1024;

export class StorageClassStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain });
  }

  override applyDefaults(o: KubeObject): void {
    if (!o.reclaimPolicy) o.reclaimPolicy = 'Delete';
    if (!o.volumeBindingMode) o.volumeBindingMode = 'Immediate';
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    const provisioner = typeof o.provisioner === 'string' ? o.provisioner : '';
    if (provisioner === '') errs.push(required('provisioner'));
    else for (const msg of isQualifiedName(provisioner.toLowerCase())) errs.push(invalid('provisioner', provisioner, msg));
    const params = isPlainObject(o.parameters) ? (o.parameters as Record<string, string>) : {};
    let size = 0;
    for (const [k, v] of Object.entries(params)) {
      if (k === '') errs.push(invalid('parameters', params, 'key cannot be empty'));
      size += k.length + String(v).length;
    }
    if (size > maxParametersSize) errs.push({ type: 'FieldValueTooLong', field: 'parameters', detail: `must have at most ${maxParametersSize} bytes` });
    if (typeof o.reclaimPolicy === 'string' && o.reclaimPolicy !== '' && !reclaimPolicies.includes(o.reclaimPolicy)) {
      errs.push(notSupported('reclaimPolicy', o.reclaimPolicy, reclaimPolicies));
    }
    if (o.volumeBindingMode === undefined || o.volumeBindingMode === null) errs.push(required('volumeBindingMode'));
    else if (!bindingModes.includes(o.volumeBindingMode as string)) errs.push(notSupported('volumeBindingMode', o.volumeBindingMode, bindingModes));
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    if (!deepEqual(o.parameters ?? null, old.parameters ?? null)) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    if (o.provisioner !== old.provisioner) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
    if (o.reclaimPolicy !== old.reclaimPolicy) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
    errs.push(...validateImmutableField(o.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'));
    return errs;
  }
}
