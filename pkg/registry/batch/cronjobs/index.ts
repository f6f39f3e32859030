// batch/v1 cronjobs (+status): schedule parsed as upstream's cron parser, job template
// validated as a Job's spec without a selector.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { defaultPodTemplateSpec } from '../../../apis/core/defaults.js';
import { formatLabelSelector, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { obj, setDefault, str, type Obj } from '../../../apis/core/types.js';
import { cronScheduleError } from '../../../apis/batch/cron.js';
import { validateJobSpec } from '../../../apis/batch/job.js';
import { nonNegative, validateEnum } from '../../../apis/apps/validation.js';
import { child, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

/** Job names add an 11-character suffix to the CronJob's name, which must stay a label. */
const maxCronJobNameLength = 52;

function specOf(o: KubeObject): Obj {
  return obj(o.spec) ?? {};
}

export class CronJobStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!obj(o.spec)) o.spec = {};
    const spec = o.spec as Obj;
    setDefault(spec, 'concurrencyPolicy', 'Allow');
    setDefault(spec, 'suspend', false);
    setDefault(spec, 'successfulJobsHistoryLimit', 3);
    setDefault(spec, 'failedJobsHistoryLimit', 1);
    if (!obj(spec.jobTemplate)) spec.jobTemplate = {};
    const jt = spec.jobTemplate as Obj;
    if (!obj(jt.metadata)) jt.metadata = {};
    if ((jt.metadata as Obj).creationTimestamp === undefined) (jt.metadata as Obj).creationTimestamp = null;
    if (!obj(jt.spec)) jt.spec = {};
    const jobSpec = jt.spec as Obj;
    if (!obj(jobSpec.template)) jobSpec.template = {};
    defaultPodTemplateSpec(jobSpec.template as Obj);
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = {};
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    const name = o.metadata.name ?? '';
    if (name.length > maxCronJobNameLength) errs.push(invalid('metadata.name', name, `must be no more than ${maxCronJobNameLength} characters`));
    const spec = specOf(o);
    const schedule = str(spec.schedule);
    if (!schedule) errs.push(required('spec.schedule'));
    else {
      const problem = cronScheduleError(schedule);
      if (problem) errs.push(invalid('spec.schedule', schedule, problem));
      else if (/^(CRON_)?TZ=/.test(schedule.trim())) {
        errs.push(invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
      }
    }
    errs.push(...validateEnum(spec.concurrencyPolicy, 'spec.concurrencyPolicy', ['Allow', 'Forbid', 'Replace']));
    errs.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
    errs.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
    errs.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
    const jobSpec = obj(obj(spec.jobTemplate)?.spec) ?? {};
    const jtPath = child('spec', 'jobTemplate', 'spec');
    errs.push(...validateJobSpec(jobSpec, jtPath));
    if (jobSpec.manualSelector === true) errs.push(notSupported(child(jtPath, 'manualSelector'), true, ['nil', 'false']));
    return errs;
  }
}

function printBool(v: unknown): string {
  return v === true ? 'True' : v === false ? 'False' : '<unset>';
}

export const cronJobTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    column('Active', 'integer', 'A list of pointers to currently running jobs.'),
    column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageColumn(),
    ...templateColumns(),
    column('Selector', 'string', 'A label query over pods that should match the pod count.', { priority: 1 }),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const jobSpec = obj(obj(spec.jobTemplate)?.spec) ?? {};
    const { names, images } = templateContainers(jobSpec.template);
    const last = str(status.lastScheduleTime);
    return [o.metadata.name ?? '', str(spec.schedule), printBool(spec.suspend), Array.isArray(status.active) ? status.active.length : 0,
      last ? humanAge(last) : '<none>', humanAge(o.metadata.creationTimestamp), names, images, formatLabelSelector(jobSpec.selector)];
  },
};

export const cronjobs: ResourceDef = {
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  singular: 'cronjob',
  shortNames: ['cj'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [{ name: 'status', kind: 'CronJob', verbs: ['get', 'patch', 'update'] }],
  strategy: new CronJobStrategy(),
  table: cronJobTable,
};
