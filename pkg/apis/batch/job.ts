// batch/v1 JobSpec defaults and validation shared by Jobs and CronJob job templates.
import type { FieldError } from '../../runtime/errors.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../meta/labels.js';
import { child, invalid, notSupported, required } from '../validation/field.js';
import { validateLabelSelector, type LabelSelector } from '../validation/labelselector.js';
import { goStringMapLiteral } from '../core/gofmt.js';
import { templateLabels } from '../core/template.js';
import { validatePodTemplateSpec } from '../core/validation.js';
import { obj, setDefault, str, type Obj } from '../core/types.js';
import { nonNegative } from '../apps/validation.js';

export const ControllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const LegacyControllerUidLabel = 'controller-uid';
export const JobNameLabel = 'batch.kubernetes.io/job-name';
export const LegacyJobNameLabel = 'job-name';

/** SetDefaults_Job (the spec part). */
export function defaultJobSpec(spec: Obj): void {
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
}

/** Selector and template labels of a Job without manualSelector (upstream: generateSelector). */
export function generateJobSelector(spec: Obj, name: string, uid: string): void {
  const tpl = (obj(spec.template) ?? {}) as Obj;
  spec.template = tpl;
  if (!obj(tpl.metadata)) tpl.metadata = {};
  const meta = tpl.metadata as Obj;
  const labels = { ...(obj(meta.labels) as Record<string, string> | undefined ?? {}) };
  for (const [k, v] of [[LegacyControllerUidLabel, uid], [ControllerUidLabel, uid], [LegacyJobNameLabel, name], [JobNameLabel, name]]) {
    if (labels[k!] === undefined) labels[k!] = v!;
  }
  meta.labels = labels;
  const sel = (obj(spec.selector) ?? {}) as Obj;
  const matchLabels = { ...(obj(sel.matchLabels) as Record<string, string> | undefined ?? {}) };
  if (matchLabels[ControllerUidLabel] === undefined) matchLabels[ControllerUidLabel] = uid;
  sel.matchLabels = matchLabels;
  spec.selector = sel;
}

/** validateJobSpec: everything but the selector's presence. */
export function validateJobSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    errs.push(...nonNegative(spec[f], child(path, f)));
  }
  const mode = str(spec.completionMode);
  if (mode && mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(child(path, 'completionMode'), mode, ['NonIndexed', 'Indexed']));
  if (mode === 'Indexed' && (spec.completions === undefined || spec.completions === null)) {
    errs.push(required(child(path, 'completions'), 'when completion mode is Indexed'));
  }
  const tpl = obj(spec.template);
  errs.push(...validatePodTemplateSpec(tpl, child(path, 'template')));
  const policy = str(obj(tpl?.spec)?.restartPolicy);
  if (policy !== 'OnFailure' && policy !== 'Never') {
    errs.push(required(child(path, 'template', 'spec', 'restartPolicy'), 'valid values: "OnFailure", "Never"'));
  }
  return errs;
}

/** ValidateJobSpec: selector required and matching the template. */
export function validateJobSpecWithSelector(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = validateJobSpec(spec, path);
  const sel = obj(spec.selector);
  if (!sel) errs.push(required(child(path, 'selector')));
  else errs.push(...validateLabelSelector(sel as LabelSelector, {}, child(path, 'selector')));
  const tpl = obj(spec.template);
  const selector = labelSelectorFromObject(sel as LabelSelectorObject | undefined);
  if (!selector.matches(templateLabels(tpl))) {
    const labels = obj(obj(tpl?.metadata)?.labels) ? templateLabels(tpl) : null;
    errs.push(invalid(child(path, 'template', 'metadata', 'labels'), goStringMapLiteral(labels), '`selector` does not match template `labels`'));
  }
  return errs;
}
