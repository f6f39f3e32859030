// batch/v1 jobs (+status): generated selector and controller-uid labels unless
// spec.manualSelector, upstream's defaults and validation.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { defaultPodTemplateSpec } from '../../../apis/core/defaults.js';
import { formatLabelSelector, num, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { obj, str, type Obj } from '../../../apis/core/types.js';
import { defaultJobSpec, generateJobSelector, validateJobSpecWithSelector } from '../../../apis/batch/job.js';
import { goLabelSelector } from '../../../apis/core/gofmt.js';
import { invalid } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { FieldImmutableErrorMsg } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { fieldLabels } from '../../../apis/meta/fields.js';

function specOf(o: KubeObject): Obj {
  return obj(o.spec) ?? {};
}

/**
 * The Job itself carries its template's labels when it has none (upstream's defaulting,
 * so it also happens when a stored Job is read).
 */
function labelsFromTemplate(o: KubeObject): void {
  const tplLabels = obj(obj(obj(obj(o.spec)?.template)?.metadata)?.labels) as Record<string, string> | undefined;
  if (Object.keys(o.metadata.labels ?? {}).length === 0 && tplLabels && Object.keys(tplLabels).length > 0) o.metadata.labels = { ...tplLabels };
}

export class JobStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!obj(o.spec)) o.spec = {};
    const spec = o.spec as Obj;
    if (!obj(spec.template)) spec.template = {};
    defaultPodTemplateSpec(spec.template as Obj);
    defaultJobSpec(spec);
    labelsFromTemplate(o);
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = {};
    const spec = specOf(o);
    if (spec.manualSelector !== true) generateJobSelector(spec, o.metadata.name ?? '', o.metadata.uid ?? '');
    labelsFromTemplate(o);
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    return validateJobSpecWithSelector(specOf(o), 'spec');
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    const spec = specOf(o);
    const oldSpec = specOf(old);
    if (!deepEqual(spec.selector, oldSpec.selector)) errs.push(invalid('spec.selector', goLabelSelector(obj(spec.selector)), FieldImmutableErrorMsg));
    if (!deepEqual(spec.completions, oldSpec.completions)) errs.push(invalid('spec.completions', spec.completions ?? null, FieldImmutableErrorMsg));
    if (!deepEqual(spec.completionMode, oldSpec.completionMode)) errs.push(invalid('spec.completionMode', str(spec.completionMode), FieldImmutableErrorMsg));
    // The pod template may change only while the job is suspended (and has not started).
    if (!deepEqual(spec.template, oldSpec.template) && !(oldSpec.suspend === true && spec.suspend === true)) {
      errs.push(invalid('spec.template', '', FieldImmutableErrorMsg));
    }
    return errs;
  }
}

function completionsCell(spec: Obj, status: Obj): string {
  if (typeof spec.completions === 'number') return `${num(status.succeeded)}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${num(status.succeeded)}/1 of ${parallelism}` : `${num(status.succeeded)}/1`;
}

function durationCell(status: Obj): string {
  const start = str(status.startTime);
  if (!start) return '';
  const end = str(status.completionTime);
  return humanAge(start, end ? Date.parse(end) : Date.now());
}

export const jobTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Completions', 'string', 'The desired number of successfully finished pods the job should be run with.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn(),
    ...templateColumns(),
    column('Selector', 'string', 'A label query over pods that should match the pod count.', { priority: 1 }),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const { names, images } = templateContainers(spec.template);
    return [o.metadata.name ?? '', completionsCell(spec, status), durationCell(status), humanAge(o.metadata.creationTimestamp),
      names, images, formatLabelSelector(spec.selector)];
  },
};

export const jobs: ResourceDef = {
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  plural: 'jobs',
  singular: 'job',
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [{ name: 'status', kind: 'Job', verbs: ['get', 'patch', 'update'] }],
  strategy: new JobStrategy(),
  table: jobTable,
  fieldLabels: fieldLabels(['metadata.name', 'metadata.namespace', 'status.successful'], {
    reject: (label) => `field label ${JSON.stringify(label)} not supported for batchv1.Job`,
  }),
  selectableFields: (o) => ({ 'status.successful': String(num(section(o as KubeObject, 'status').succeeded)) }),
};
