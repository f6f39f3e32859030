// The pod-template rules of replicating controllers (ReplicationController, ReplicaSet,
// Deployment, StatefulSet, DaemonSet): the selector must match the template's labels,
// pods restart Always and carry no activeDeadlineSeconds.
import type { FieldError } from '../../runtime/errors.js';
import type { LabelSelector } from '../meta/labels.js';
import { child, forbidden, notSupported, required } from '../validation/field.js';
import { goStringMapLiteral } from './gofmt.js';
import { obj, str, strMap, type Obj } from './types.js';
import { validatePodTemplateSpec } from './validation.js';

export function templateLabels(tpl: Obj | undefined): Record<string, string> {
  return strMap(obj(tpl?.metadata)?.labels);
}

export function validateTemplateForReplicas(tpl: Obj | undefined, selector: LabelSelector, path: string,
  allowedRestartPolicies: string[] = ['Always']): FieldError[] {
  if (!tpl) return [required(path)];
  const errs: FieldError[] = [];
  if (!selector.empty()) {
    const labels = obj(obj(tpl.metadata)?.labels) ? templateLabels(tpl) : undefined;
    if (!selector.matches(labels ?? {})) {
      errs.push({ type: 'FieldValueInvalid', field: child(path, 'metadata', 'labels'), value: goStringMapLiteral(labels ?? null), detail: '`selector` does not match template `labels`' });
    }
  }
  errs.push(...validatePodTemplateSpec(tpl, path));
  const spec = obj(tpl.spec) ?? {};
  const policy = str(spec.restartPolicy);
  if (!allowedRestartPolicies.includes(policy)) errs.push(notSupported(child(path, 'spec', 'restartPolicy'), policy, allowedRestartPolicies));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(child(path, 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}
