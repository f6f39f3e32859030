// What the apps/v1 replicating workloads share: a strategy base (status subresource,
// generation, template defaults, immutable selector) and their scale declaration.
import type { FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { ScaleDef, SubresourceDef } from '../rest/resource.js';
import { defaultPodTemplateSpec } from '../../apis/core/defaults.js';
import { obj, type Obj } from '../../apis/core/types.js';
import { nonNegative, validateSelectorImmutable } from '../../apis/apps/validation.js';
import { invalid } from '../../apis/validation/field.js';
import type { StrategyContext } from '../generic/strategy.js';
import { nameIsDNSSubdomain } from '../../apis/validation/names.js';
import { BaseStrategy } from '../generic/base-strategy.js';

export const replicasScale: ScaleDef = {
  specReplicasPath: ['spec', 'replicas'], statusReplicasPath: ['status', 'replicas'], selectorPath: ['spec', 'selector'],
};

export function scaleSubresource(): SubresourceDef {
  return { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], scale: replicasScale };
}

export function specOf(o: KubeObject): Obj {
  return obj(o.spec) ?? {};
}

export abstract class WorkloadStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  /** The status a new object starts with (Go prints its non-omitempty zero fields). */
  protected abstract initialStatus(): Obj;
  protected abstract defaultSpec(spec: Obj): void;
  protected abstract validateSpec(o: KubeObject): FieldError[];

  override applyDefaults(o: KubeObject): void {
    if (!obj(o.spec)) o.spec = {};
    const spec = o.spec as Obj;
    if (!obj(spec.template)) spec.template = {};
    defaultPodTemplateSpec(spec.template as Obj);
    this.defaultSpec(spec);
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = this.initialStatus();
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    return this.validateSpec(o);
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === 'status') return validateReplicaStatus(obj(o.status) ?? {});
    return [...this.validateSpec(o), ...validateSelectorImmutable(specOf(o), specOf(old), 'spec')];
  }
}

/**
 * Status rules shared by Deployment, ReplicaSet and StatefulSet status writes: counts
 * are non-negative, and none of ready/available exceeds what holds it.
 */
export function validateReplicaStatus(status: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(status)) {
    if (typeof v === 'number') errs.push(...nonNegative(v, `status.${k}`));
  }
  const n = (k: string) => (typeof status[k] === 'number' ? (status[k] as number) : 0);
  if (n('readyReplicas') > n('replicas')) errs.push(invalid('status.readyReplicas', n('readyReplicas'), 'cannot be greater than status.replicas'));
  if (n('availableReplicas') > n('replicas')) errs.push(invalid('status.availableReplicas', n('availableReplicas'), 'cannot be greater than status.replicas'));
  if (n('availableReplicas') > n('readyReplicas')) errs.push(invalid('status.availableReplicas', n('availableReplicas'), 'cannot be greater than readyReplicas'));
  return errs;
}
