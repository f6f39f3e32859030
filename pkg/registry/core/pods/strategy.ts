// Pod: upstream's pod strategy. Create sets status (Pending, qosClass); the main
// endpoint allows only image, activeDeadlineSeconds, toleration additions and a
// negative terminationGracePeriodSeconds becoming 1 to change; status and
// ephemeralcontainers endpoints each change only their own part.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { defaultPod, podQOSClass } from '../../../apis/core/defaults.js';
import { validatePodSpec } from '../../../apis/core/validation.js';
import { podSpecDiff } from '../../../apis/core/diff.js';
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';
import { forbidden, child, index, invalid, required, dedupe } from '../../../apis/validation/field.js';
import { validateObjectMeta, validateObjectMetaChange } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { validatePathSegmentName } from '../../../apis/validation/names.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy, copyField } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';

export const podUpdateForbiddenMessage = 'pod updates may not change fields other than `spec.containers[*].image`,'
  + '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),'
  + '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

export function podSpec(o: KubeObject): Obj {
  return obj(o.spec) ?? {};
}

export class PodStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true });
  }

  override applyDefaults(o: KubeObject): void {
    defaultPod(o as Obj);
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { phase: 'Pending', qosClass: podQOSClass(podSpec(o)) };
  }

  protected override prepareObjectForUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'ephemeralcontainers') {
      // Only spec.ephemeralContainers comes from the request.
      const eph = podSpec(o).ephemeralContainers;
      o.spec = structuredClone(old.spec);
      copyField(o, old, 'status');
      if (eph === undefined) delete (o.spec as Obj).ephemeralContainers;
      else (o.spec as Obj).ephemeralContainers = eph;
    }
    // pods/binding writes spec.nodeName and the PodScheduled condition together.
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const errs = validatePodSpec(obj(o.spec), 'spec');
    // Ephemeral containers only come through the ephemeralcontainers subresource.
    if (arr(podSpec(o).ephemeralContainers).length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
    return errs;
  }

  /** Metadata problems once each; the spec's as upstream lists them (the image check repeats). */
  override validateUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    const meta = dedupe([
      ...validateObjectMeta(o.metadata, { namespaced: true, nameValidator: validatePathSegmentName }),
      ...validateObjectMetaChange(o.metadata, old.metadata),
      ...this.metadataErrors(o),
    ]);
    return [...meta, ...this.validateObjectUpdate(o, old, ctx)];
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === 'status' || ctx.subresource === 'binding') return [];
    if (ctx.subresource === 'ephemeralcontainers') return validateEphemeralUpdate(o, old);
    return [...validatePodSpec(obj(o.spec), 'spec'), ...validatePodSpecUpdate(podSpec(o), podSpec(old))];
  }

  /**
   * Pods on a node wait for the kubelet: terminationGracePeriodSeconds unless the
   * request says otherwise. Unscheduled and finished pods go at once.
   */
  gracePeriod(o: KubeObject, requested: number | undefined): number {
    const spec = podSpec(o);
    const phase = str(obj(o.status)?.phase);
    if (!str(spec.nodeName) || phase === 'Succeeded' || phase === 'Failed') return 0;
    if (requested !== undefined) return requested < 0 ? 1 : requested;
    const fromSpec = spec.terminationGracePeriodSeconds;
    return typeof fromSpec === 'number' ? (fromSpec < 0 ? 1 : fromSpec) : 30;
  }

  resetFields(subresource: string): string[][] {
    if (subresource === 'status') return [['spec'], ['metadata', 'deletionTimestamp'], ['metadata', 'ownerReferences']];
    return [['status']];
  }
}

/** What ValidatePodUpdate allows to differ between the old and the new spec. */
export function validatePodSpecUpdate(spec: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (arr(spec.containers).length !== arr(old.containers).length) {
    return [forbidden('spec.containers', 'pod updates may not add or remove containers')];
  }
  if (arr(spec.initContainers).length !== arr(old.initContainers).length) {
    return [forbidden('spec.initContainers', 'pod updates may not add or remove containers')];
  }
  // ValidateContainerUpdates: an image may change but not go (reported again after the spec's own check, as upstream).
  for (const list of ['containers', 'initContainers']) {
    arr(spec[list]).forEach((c, i) => {
      if (!str(c.image)) errs.push(required(child(index(`spec.${list}`, i), 'image')));
    });
  }
  const munged: Obj = structuredClone(old);
  for (const list of ['containers', 'initContainers']) {
    const newList = arr(spec[list]);
    arr(munged[list]).forEach((c, i) => { c.image = newList[i]?.image; });
  }
  const oldDeadline = old.activeDeadlineSeconds;
  const newDeadline = spec.activeDeadlineSeconds;
  if (newDeadline !== undefined) {
    if (typeof oldDeadline === 'number' && (typeof newDeadline !== 'number' || newDeadline > oldDeadline)) {
      errs.push(invalid('spec.activeDeadlineSeconds', newDeadline, 'must be less than or equal to previous value'));
    }
    munged.activeDeadlineSeconds = newDeadline;
  } else if (oldDeadline !== undefined) {
    errs.push(invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  // Tolerations: every old toleration must remain; new ones may be added.
  const oldTols = arr(old.tolerations);
  const newTols = arr(spec.tolerations);
  const kept = oldTols.every((t) => newTols.some((n) => deepEqual(tolKey(n), tolKey(t))
    && (t.tolerationSeconds === undefined || t.tolerationSeconds === null || (typeof n.tolerationSeconds === 'number' && n.tolerationSeconds <= (t.tolerationSeconds as number)))));
  if (!kept) {
    oldTols.forEach((t, i) => {
      if (!newTols.some((n) => deepEqual(tolKey(n), tolKey(t)))) {
        errs.push(forbidden(index('spec.tolerations', i), 'existing toleration can not be modified except its tolerationSeconds'));
      }
    });
  }
  // Checked above: tolerations never count as a forbidden spec change.
  copyField(munged, spec, 'tolerations');
  const oldGrace = old.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && spec.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = 1;
  if (!deepEqual(munged, spec)) {
    // Upstream diffs the old spec against the new one with the allowed fields reset.
    const forDiff: Obj = structuredClone(spec);
    for (const list of ['containers', 'initContainers']) {
      const oldList = arr(old[list]);
      arr(forDiff[list]).forEach((c, i) => { c.image = oldList[i]?.image; });
    }
    // ValidatePodUpdate's munging: these come from the old spec; the grace period only
    // in the negative-to-1 case it allows.
    for (const f of ['activeDeadlineSeconds', 'tolerations', 'schedulingGates']) copyField(forDiff, old, f);
    if (typeof oldGrace === 'number' && oldGrace < 0 && spec.terminationGracePeriodSeconds === 1) copyField(forDiff, old, 'terminationGracePeriodSeconds');
    errs.push(forbidden('spec', `${podUpdateForbiddenMessage}\n${podSpecDiff(old, forDiff)}`));
  }
  return errs;
}

function tolKey(t: Obj): Obj {
  return { key: str(t.key), operator: str(t.operator) || 'Equal', value: str(t.value), effect: str(t.effect) };
}

function validateEphemeralUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePodSpec(podSpec(o), 'spec');
  const newEph = arr(podSpec(o).ephemeralContainers);
  const oldEph = arr(podSpec(old).ephemeralContainers);
  for (const c of oldEph) {
    const match = newEph.find((n) => n.name === c.name);
    if (!match) errs.push(forbidden(child('spec', 'ephemeralContainers'), `existing ephemeral containers "${str(c.name)}" may not be removed\n`));
    else if (!deepEqual(match, c)) errs.push(forbidden(child('spec', 'ephemeralContainers'), `existing ephemeral containers "${str(c.name)}" may not be changed\n`));
  }
  return errs;
}
