// VolumeAttachment: a CSI attacher, exactly one source, a node; the spec is immutable and
// status (attached, errors) belongs to the attacher's /status writes.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { forbidden, invalid, required } from '../../../apis/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { csiDriverNameErrors } from '../csinodes/strategy.js';

const maxAttachErrorLength = 1024;

function obj(v: unknown): Record<string, unknown> {
  return isPlainObject(v) ? v : {};
}

export class VolumeAttachmentStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, hasStatus: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    if (!isPlainObject(o.status)) o.status = {};
    const status = o.status as Record<string, unknown>;
    if (typeof status.attached !== 'boolean') status.attached = false;
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { attached: false };
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = obj(o.spec);
    const errs: FieldError[] = [];
    const attacher = typeof spec.attacher === 'string' ? spec.attacher : '';
    if (attacher === '') errs.push(required('spec.attacher'));
    const source = obj(spec.source);
    const pv = source.persistentVolumeName;
    const inline = source.inlineVolumeSpec;
    if ((pv === undefined || pv === null) && (inline === undefined || inline === null)) {
      errs.push(required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
    } else if (pv !== undefined && pv !== null && inline !== undefined && inline !== null) {
      errs.push(forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
    } else if (pv === '') {
      errs.push(required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
    }
    const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
    for (const msg of isDNS1123Subdomain(nodeName)) errs.push(invalid('spec.nodeName', nodeName, msg));
    errs.push(...validateStatus(obj(o.status)));
    // The v1 API also requires a CSI driver name as attacher.
    if (attacher !== '') errs.push(...csiDriverNameErrors(attacher, 'spec.attacher'));
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    if (!deepEqual(o.spec, old.spec)) errs.push(invalid('spec', o.spec, 'field is immutable'));
    return errs;
  }
}

function validateStatus(status: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const metaSize = Object.entries(obj(status.attachmentMetadata)).reduce((n, [k, v]) => n + k.length + String(v).length, 0);
  if (metaSize > 256 * 1024) errs.push({ type: 'FieldValueTooLong', field: 'status.attachmentMetadata', detail: `must have at most ${256 * 1024} bytes` });
  for (const f of ['attachError', 'detachError']) {
    const message = obj(status[f]).message;
    if (typeof message === 'string' && message.length > maxAttachErrorLength) {
      errs.push({ type: 'FieldValueTooLong', field: `status.${f}.message`, detail: `must have at most ${maxAttachErrorLength} bytes` });
    }
  }
  return errs;
}
