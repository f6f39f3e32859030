// Deployment: upstream's apps/v1 defaults (RollingUpdate 25%/25%, 10 revisions,
// 600s progress deadline) and ValidateDeploymentSpec.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { validateTemplateForReplicas } from '../../../apis/core/template.js';
import { obj, setDefault, str, type Obj } from '../../../apis/core/types.js';
import {
  int, isNotMoreThan100Percent, isZero, nonNegative, validateEnum, validatePositiveIntOrPercent, validateSelector,
} from '../../../apis/apps/validation.js';
import { child, forbidden, invalid } from '../../../apis/validation/field.js';
import { specOf, WorkloadStrategy } from '../workload.js';

export class DeploymentStrategy extends WorkloadStrategy {
  protected initialStatus(): Obj {
    return {};
  }

  protected defaultSpec(spec: Obj): void {
    setDefault(spec, 'replicas', 1);
    if (!obj(spec.strategy)) spec.strategy = {};
    const strategy = spec.strategy as Obj;
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      if (!obj(strategy.rollingUpdate)) strategy.rollingUpdate = {};
      const ru = strategy.rollingUpdate as Obj;
      setDefault(ru, 'maxUnavailable', '25%');
      setDefault(ru, 'maxSurge', '25%');
    }
    setDefault(spec, 'revisionHistoryLimit', 10);
    setDefault(spec, 'progressDeadlineSeconds', 600);
  }

  protected validateSpec(o: KubeObject): FieldError[] {
    return validateDeploymentSpec(specOf(o), 'spec');
  }
}

export function validateDeploymentSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(spec.replicas, child(path, 'replicas')));
  const sel = validateSelector(spec, path, 'deployment');
  errs.push(...sel.errs);
  errs.push(...validateTemplateForReplicas(obj(spec.template), sel.selector, child(path, 'template')));
  errs.push(...nonNegative(spec.revisionHistoryLimit, child(path, 'revisionHistoryLimit')));
  errs.push(...validateStrategy(obj(spec.strategy) ?? {}, child(path, 'strategy')));
  errs.push(...nonNegative(spec.minReadySeconds, child(path, 'minReadySeconds')));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(spec.progressDeadlineSeconds, child(path, 'progressDeadlineSeconds')));
    if (spec.progressDeadlineSeconds <= int(spec.minReadySeconds)) {
      errs.push(invalid(child(path, 'progressDeadlineSeconds'), spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

function validateStrategy(strategy: Obj, path: string): FieldError[] {
  const type = str(strategy.type);
  const ru = obj(strategy.rollingUpdate);
  if (type === 'Recreate') {
    return ru ? [forbidden(child(path, 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type !== 'RollingUpdate') return validateEnum(type, child(path, 'type'), ['Recreate', 'RollingUpdate']);
  if (!ru) return [];
  const p = child(path, 'rollingUpdate');
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, child(p, 'maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge, child(p, 'maxSurge')),
  ];
  if (isZero(ru.maxUnavailable) && isZero(ru.maxSurge)) {
    errs.push(invalid(child(p, 'maxUnavailable'), ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, child(p, 'maxUnavailable')));
  return errs;
}
