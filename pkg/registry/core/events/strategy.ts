// Event validation as upstream: core/v1 writes get only the legacy checks (old clients
// must keep working); events.k8s.io/v1 writes are held to the new rules. One strategy
// class serves both; the events.k8s.io instance first views the object in core form.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { byteLength, invalid, required } from '../../../apis/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import {
  validateImmutableField, validateObjectMeta, validateObjectMetaUpdate, validateQualifiedName,
} from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { fillCoreEvent, isZeroTime } from './conversion.js';

export const ReportingInstanceLengthLimit = 128;
export const ActionLengthLimit = 128;
export const ReasonLengthLimit = 128;
export const NoteLengthLimit = 1024;

export interface EventStrategyOptions {
  /** events.k8s.io/v1 rules (and its field name for the reporting controller). */
  strict: boolean;
  /** Views a served object in core/v1 form (identity for the core group). */
  toCore: (obj: KubeObject) => KubeObject;
  /** Fills the served form's always-present fields. */
  fill: (obj: KubeObject) => KubeObject;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

export class EventStrategy extends BaseStrategy {
  constructor(private readonly ev: EventStrategyOptions) {
    super({
      namespaced: true, nameValidator: nameIsDNSSubdomain, allowCreateOnUpdate: true, validateMetadata: false,
    });
  }

  override applyDefaults(obj: KubeObject): void {
    this.ev.fill(obj);
  }

  override canonicalize(obj: KubeObject): void {
    this.ev.fill(obj);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const e = this.ev.toCore(obj);
    const errs = this.legacyErrors(e);
    if (!this.ev.strict) return errs;
    errs.push(...validateObjectMeta(e.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain, standardFinalizers: true }));
    errs.push(...seriesErrors(e));
    if (isZeroTime(e.eventTime)) errs.push(required('eventTime'));
    const type = str(e.type);
    if (type !== 'Normal' && type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${type}`));
    if (!isZeroTime(e.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
    if (!isZeroTime(e.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
    if (typeof e.count === 'number' && e.count !== 0) errs.push(invalid('count', '', 'needs to be unset'));
    const source = rec(e.source);
    if (str(source.component) || str(source.host)) errs.push(invalid('source', '', 'needs to be unset'));
    return errs;
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    const e = this.ev.toCore(obj);
    const o = this.ev.toCore(old);
    const errs = this.legacyErrors(e);
    if (!this.ev.strict) return errs;
    errs.push(...validateObjectMetaUpdate(e.metadata, o.metadata));
    if (!deepEqual(e.series ?? null, o.series ?? null)) errs.push(...seriesErrors(e));
    const immutable = (path: string, a: unknown, b: unknown): void => {
      errs.push(...validateImmutableField(a ?? null, b ?? null, path));
    };
    immutable('involvedObject', e.involvedObject, o.involvedObject);
    immutable('reason', str(e.reason), str(o.reason));
    immutable('message', str(e.message), str(o.message));
    immutable('source', e.source, o.source);
    immutable('firstTimestamp', e.firstTimestamp, o.firstTimestamp);
    immutable('lastTimestamp', e.lastTimestamp, o.lastTimestamp);
    immutable('count', e.count ?? 0, o.count ?? 0);
    immutable('reason', str(e.reason), str(o.reason));
    immutable('type', str(e.type), str(o.type));
    // Sub-microsecond differences come from clients that truncate when serializing.
    if (microKey(e.eventTime) !== microKey(o.eventTime)) immutable('eventTime', e.eventTime, o.eventTime);
    immutable('action', str(e.action), str(o.action));
    immutable('related', e.related, o.related);
    immutable('reportingController', str(e.reportingComponent), str(o.reportingComponent));
    immutable('reportingInstance', str(e.reportingInstance), str(o.reportingInstance));
    return errs;
  }

  /** Checks every event passes, whichever group it came through. */
  private legacyErrors(e: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    const ns = e.metadata.namespace ?? '';
    const involved = rec(e.involvedObject);
    const involvedNs = str(involved.namespace);
    const mismatch = (): FieldError => invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
    if (isZeroTime(e.eventTime)) {
      // Old-style events: the namespaces must agree ("default" tolerated for old clients).
      if (!involvedNs) {
        if (ns !== '' && ns !== 'default') errs.push(mismatch());
      } else if (ns !== involvedNs) {
        errs.push(mismatch());
      }
    } else {
      if (!involvedNs && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch());
      const controllerField = this.ev.strict ? 'reportingController' : 'reportingComponent';
      const controller = str(e.reportingComponent);
      if (!controller) errs.push(required(controllerField));
      errs.push(...validateQualifiedName(controller, controllerField));
      const instance = str(e.reportingInstance);
      if (!instance) errs.push(required('reportingInstance'));
      if (byteLength(instance) > ReportingInstanceLengthLimit) {
        errs.push(invalid('reportingInstance', '', `can have at most ${ReportingInstanceLengthLimit} characters`));
      }
      const action = str(e.action);
      if (!action) errs.push(required('action'));
      if (byteLength(action) > ActionLengthLimit) errs.push(invalid('action', '', `can have at most ${ActionLengthLimit} characters`));
      const reason = str(e.reason);
      if (!reason) errs.push(required('reason'));
      if (byteLength(reason) > ReasonLengthLimit) errs.push(invalid('reason', '', `can have at most ${ReasonLengthLimit} characters`));
      if (byteLength(str(e.message)) > NoteLengthLimit) {
        errs.push(invalid('message', '', `can have at most ${NoteLengthLimit} characters`));
      }
    }
    for (const msg of isDNS1123Subdomain(ns)) errs.push(invalid('namespace', ns, msg));
    return errs;
  }
}

function seriesErrors(e: KubeObject): FieldError[] {
  if (!isPlainObject(e.series)) return [];
  const errs: FieldError[] = [];
  const count = typeof e.series.count === 'number' ? e.series.count : 0;
  if (count < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(e.series.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

/** A timestamp reduced to whole microseconds, for comparison. */
function microKey(v: unknown): string {
  if (isZeroTime(v) || typeof v !== 'string') return '';
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(v);
  if (!m) return v;
  const secs = Date.parse(`${m[1]}${m[3] || 'Z'}`);
  return `${secs}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}`;
}

export const coreEventStrategy = (): EventStrategy => new EventStrategy({ strict: false, toCore: (o) => o, fill: fillCoreEvent });
