// PersistentVolumeClaim: upstream's defaults (Filesystem, Pending, dataSource/dataSourceRef
// kept in step) and spec validation; only resources.requests (and a first volumeName)
// change after creation.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { forbidden, invalid, key, notSupported, required } from '../../../apis/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { resourceList, supportedAccessModes, supportedVolumeModes, validatePositiveQuantity } from '../../../apis/core/resources.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

function obj(v: unknown): Record<string, unknown> {
  return isPlainObject(v) ? v : {};
}

export class PersistentVolumeClaimStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    const spec = o.spec as Record<string, unknown>;
    if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
    if (!isPlainObject(o.status)) o.status = {};
    const status = o.status as Record<string, unknown>;
    if (!status.phase) status.phase = 'Pending';
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { phase: 'Pending' };
    const spec = obj(o.spec);
    // One of dataSource / dataSourceRef set alone fills the other (AnyVolumeDataSource).
    if (isPlainObject(spec.dataSource) && spec.dataSourceRef === undefined) {
      spec.dataSourceRef = { ...spec.dataSource };
    } else if (isPlainObject(spec.dataSourceRef) && spec.dataSource === undefined && !spec.dataSourceRef.namespace) {
      spec.dataSource = { ...spec.dataSourceRef };
    }
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = obj(o.spec);
    const errs: FieldError[] = [];
    const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
    if (modes.length === 0) errs.push(required('spec.accessModes', 'at least 1 access mode is required'));
    for (const m of modes) {
      if (!supportedAccessModes.includes(m as string)) errs.push(notSupported('spec.accessModes', m, supportedAccessModes));
    }
    const storage = resourceList(obj(spec.resources).requests).storage;
    if (storage === undefined) errs.push(required(key('spec.resources', 'storage')));
    else errs.push(...validatePositiveQuantity(storage, key('spec.resources', 'storage')));
    if (typeof spec.storageClassName === 'string' && spec.storageClassName !== '') {
      for (const msg of isDNS1123Subdomain(spec.storageClassName)) errs.push(invalid('spec.storageClassName', spec.storageClassName, msg));
    }
    if (typeof spec.volumeMode === 'string' && !supportedVolumeModes.includes(spec.volumeMode)) {
      errs.push(notSupported('spec.volumeMode', spec.volumeMode, supportedVolumeModes));
    }
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    const spec = structuredClone(obj(o.spec));
    const oldSpec = structuredClone(obj(old.spec));
    // A claim may be bound once (volumeName from empty) and resized (resources.requests).
    if (!oldSpec.volumeName) delete spec.volumeName, delete oldSpec.volumeName;
    delete obj(spec.resources).requests;
    delete obj(oldSpec.resources).requests;
    if (!deepEqual(spec, oldSpec)) {
      errs.push(forbidden('spec', 'spec is immutable after creation except resources.requests for bound claims'));
    }
    return errs;
  }
}
