import { expect } from 'chai';
import { fieldErrorMessage } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { Obj } from '../../apis/core/types.js';
import { cronScheduleError } from '../../apis/batch/cron.js';
import {
  columnsOf, createStatus, createThrough, invalidFixture, objectFixture, stripVolatile, tableFixture, withVolatileCells,
} from '../../../test/harness/surface-fixtures.js';
import { cronjobs } from './cronjobs/index.js';
import { jobs } from './jobs/index.js';

/** The fixture's Job uid, which its generated labels and selector carry. */
const jobUID = '9fc48886-22b6-4c41-979a-ff7ce4554bba';

describe('batch/v1', () => {
  it('creates batch_v1.Job.j as upstream answered, with generated selector and labels', () => {
    const f = objectFixture('batch_v1.Job.j');
    expect(stripVolatile(createThrough(jobs, f.request, 'fixtures', jobUID))).to.deep.equal(stripVolatile(f.response));
  });

  it('creates batch_v1.CronJob.cj as upstream answered', () => {
    const f = objectFixture('batch_v1.CronJob.cj');
    expect(stripVolatile(createThrough(cronjobs, f.request))).to.deep.equal(stripVolatile(f.response));
  });

  it('prints Job and CronJob columns and cells as upstream', () => {
    const j = tableFixture('batch_v1.Job');
    expect(columnsOf(jobs)).to.deep.equal(j.columnDefinitions);
    const jc = jobs.table!.cells(createThrough(jobs, objectFixture('batch_v1.Job.j').request, 'fixtures', jobUID));
    expect(jc).to.deep.equal(withVolatileCells(jobs, j.rows[0]!, jc));
    const c = tableFixture('batch_v1.CronJob');
    expect(columnsOf(cronjobs)).to.deep.equal(c.columnDefinitions);
    const cc = cronjobs.table!.cells(createThrough(cronjobs, objectFixture('batch_v1.CronJob.cj').request));
    expect(cc).to.deep.equal(withVolatileCells(cronjobs, c.rows[0]!, cc));
  });

  it('rejects job-restart-always and cronjob-bad-schedule with upstream\'s status', () => {
    const j = invalidFixture('job-restart-always');
    expect(createStatus(jobs, j.request.body)).to.deep.equal(j.response);
    const c = invalidFixture('cronjob-bad-schedule');
    expect(createStatus(cronjobs, c.request.body)).to.deep.equal(c.response);
  });

  it('keeps a manual selector, and requires it to match', () => {
    const status = createStatus(jobs, {
      metadata: { name: 'm' },
      spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'c' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } },
    });
    expect(status?.message).to.equal('Job.batch "m" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"a":"c"}: `selector` does not match template `labels`');
  });

  it('keeps the job selector immutable', () => {
    const old = createThrough(jobs, objectFixture('batch_v1.Job.j').request, 'fixtures', jobUID);
    const next: KubeObject = structuredClone(old);
    ((next.spec as Obj).selector as Obj).matchLabels = { other: 'x' };
    expect(jobs.strategy.validateUpdate(next, old, {}).map((e) => fieldErrorMessage(e))).to.include(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"other":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable');
  });

  it('parses cron schedules with upstream\'s errors', () => {
    expect(cronScheduleError('*/5 * * * *')).to.equal(undefined);
    expect(cronScheduleError('@hourly')).to.equal(undefined);
    expect(cronScheduleError('0 0 * JAN-MAR MON')).to.equal(undefined);
    expect(cronScheduleError('61 * * * *')).to.equal('end of range (61) above maximum (59): 61');
    expect(cronScheduleError('* * 0 * *')).to.equal('beginning of range (0) below minimum (1): 0');
    expect(cronScheduleError('a * * * *')).to.equal('failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax');
  });
});
