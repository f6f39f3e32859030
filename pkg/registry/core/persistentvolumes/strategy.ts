// PersistentVolume: upstream's defaults (Retain, Filesystem, Pending) and spec validation.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { child, forbidden, key, notSupported, required } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import {
  resourceList, supportedAccessModes, supportedVolumeModes, validateNonNegativeQuantity,
} from '../../../apis/core/resources.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

/** The fields of PersistentVolumeSource: exactly one is set. */
export const persistentVolumeSources = ['gcePersistentDisk', 'awsElasticBlockStore', 'hostPath', 'glusterfs', 'nfs', 'rbd',
  'iscsi', 'cinder', 'cephfs', 'fc', 'flocker', 'flexVolume', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk',
  'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'local', 'storageos', 'csi'];

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function obj(v: unknown): Record<string, unknown> {
  return isPlainObject(v) ? v : {};
}

export class PersistentVolumeStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, hasStatus: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    const spec = o.spec as Record<string, unknown>;
    if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
    if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
    if (isPlainObject(spec.hostPath) && spec.hostPath.type === undefined) spec.hostPath.type = '';
    if (!isPlainObject(o.status)) o.status = {};
    const status = o.status as Record<string, unknown>;
    if (!status.phase) status.phase = 'Pending';
  }

  /** Status is cleared; upstream's read-back defaulting makes the phase Pending. */
  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { phase: 'Pending' };
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = obj(o.spec);
    const errs: FieldError[] = [];
    const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
    if (modes.length === 0) errs.push(required('spec.accessModes', 'must specify at least 1 access mode'));
    for (const m of modes) {
      if (!supportedAccessModes.includes(m as string)) errs.push(notSupported('spec.accessModes', m, supportedAccessModes));
    }
    const capacity = resourceList(spec.capacity);
    if (Object.keys(capacity).length === 0) errs.push(required('spec.capacity'));
    else if (capacity.storage === undefined || Object.keys(capacity).length > 1) {
      errs.push(notSupported('spec.capacity', Object.keys(capacity), ['storage']));
    }
    for (const [r, q] of Object.entries(capacity)) errs.push(...validateNonNegativeQuantity(q, key('spec.capacity', r)));
    const policy = spec.persistentVolumeReclaimPolicy;
    if (typeof policy === 'string' && policy !== '' && !reclaimPolicies.includes(policy)) {
      errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, reclaimPolicies));
    }
    const sources = persistentVolumeSources.filter((s) => spec[s] !== undefined && spec[s] !== null);
    if (sources.length === 0) errs.push(required('spec', 'must specify a volume type'));
    for (const extra of sources.slice(1)) errs.push(forbidden(child('spec', extra), 'may not specify more than 1 volume type'));
    if (isPlainObject(spec.hostPath)) {
      const hp = spec.hostPath;
      if (!hp.path) errs.push(required('spec.hostPath.path'));
      if (typeof hp.type === 'string' && !hostPathTypes.includes(hp.type)) errs.push(notSupported('spec.hostPath.type', hp.type, hostPathTypes));
    }
    if (typeof spec.volumeMode === 'string' && !supportedVolumeModes.includes(spec.volumeMode)) {
      errs.push(notSupported('spec.volumeMode', spec.volumeMode, supportedVolumeModes));
    }
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    const spec = obj(o.spec);
    const oldSpec = obj(old.spec);
    const source = (s: Record<string, unknown>) => persistentVolumeSources.map((k) => s[k] ?? null);
    if (!deepEqual(source(spec), source(oldSpec))) {
      errs.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
    }
    // Upstream's path for this check really is just "volumeMode".
    errs.push(...validateImmutableField(spec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
    return errs;
  }
}
