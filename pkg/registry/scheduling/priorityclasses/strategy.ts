// PriorityClass: user classes up to one billion; "system-" names are reserved for the two
// system classes, which cannot be deleted; value and preemptionPolicy are immutable.
import { errors, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { forbidden, notSupported } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateImmutableField } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export const HighestUserDefinablePriority = 1000000000;
export const SystemPriorityClassPrefix = 'system-';

/** Upstream's system classes, created at start (pkg/server/bootstrap.ts). */
export const systemPriorityClasses: KubeObject[] = [
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** Why a system-prefixed class is not one of the system classes, or '' when it is. */
function systemClassMismatch(name: string, value: unknown, globalDefault: boolean): string {
  const known = systemPriorityClasses.find((c) => c.metadata.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${String(known.value)}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return '';
}

export class PriorityClassStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain });
  }

  override applyDefaults(o: KubeObject): void {
    if (o.preemptionPolicy === undefined || o.preemptionPolicy === null) o.preemptionPolicy = 'PreemptLowerPriority';
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.metadata.generation = 1;
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    const name = o.metadata.name ?? '';
    if (name.startsWith(SystemPriorityClassPrefix)) {
      const why = systemClassMismatch(name, o.value, o.globalDefault === true);
      if (why) errs.push(forbidden('metadata.name', `priority class names with '${SystemPriorityClassPrefix}' prefix are reserved for system use only. error: ${why}`));
    } else if (typeof o.value === 'number' && o.value > HighestUserDefinablePriority) {
      errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${HighestUserDefinablePriority}`));
    }
    if (typeof o.preemptionPolicy === 'string' && !preemptionPolicies.includes(o.preemptionPolicy)) {
      errs.push(notSupported('preemptionPolicy', o.preemptionPolicy, preemptionPolicies));
    }
    return errs;
  }

  /** Upstream's update check is metadata, value and preemptionPolicy only. */
  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    if (o.value !== old.value) errs.push(forbidden('value', 'may not be changed in an update.'));
    errs.push(...validateImmutableField(o.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
    return errs;
  }

  checkDelete(_namespace: string, name: string): void {
    if (systemPriorityClasses.some((c) => c.metadata.name === name)) {
      throw errors.forbidden({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, name, 'this is a system priority class and cannot be deleted');
    }
  }
}
