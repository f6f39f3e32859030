import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { failure } from '../../../../test/harness/failure.js';
import { createThrough, invalidFixture, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { priorityclasses } from './index.js';
import { systemPriorityClasses } from './strategy.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = priorityclasses.strategy;

describe('priorityclasses', () => {
  it('declares upstream discovery data', () => {
    expect(priorityclasses).to.include({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false });
    expect(priorityclasses.shortNames).to.deep.equal(['pc']);
  });

  it('reproduces upstream\'s created fixtures-pc (generation 1, PreemptLowerPriority)', () => {
    const { request, response } = objectFixture('scheduling.k8s.io_v1', 'PriorityClass', 'fixtures-pc');
    expect(createThrough(priorityclasses, request)).to.deep.equal(withoutVolatile(response));
  });

  it('answers priorityclass-value-too-high with upstream\'s status', () => {
    const fx = invalidFixture('priorityclass-value-too-high');
    expect(failure(() => createThrough(priorityclasses, fx.request.body)).toStatus()).to.deep.equal(fx.response);
  });

  it('reserves system- names for the system classes as they are', () => {
    for (const pc of systemPriorityClasses) expect(s.validate(structuredClone(pc), {})).to.deep.equal([]);
    expect(render(s.validate({ metadata: { name: 'system-mine' }, value: 1 }, {}))).to.deep.equal([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"]);
    expect(render(s.validate({ metadata: { name: 'system-node-critical' }, value: 1 }, {}))).to.deep.equal([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"]);
    expect(render(s.validate({ metadata: { name: 'p' }, value: 1, preemptionPolicy: 'Sometimes' }, {}))).to.deep.equal([
      'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']);
  });

  it('value and preemptionPolicy are immutable; system classes cannot be deleted', () => {
    const old: KubeObject = { metadata: { name: 'p', resourceVersion: '1' }, value: 1, preemptionPolicy: 'PreemptLowerPriority' };
    const upd: KubeObject = { metadata: { name: 'p', resourceVersion: '1' }, value: 2, preemptionPolicy: 'Never' };
    expect(render(s.validateUpdate(upd, old, {}))).to.deep.equal([
      'value: Forbidden: may not be changed in an update.', 'preemptionPolicy: Invalid value: "Never": field is immutable']);
    expect(failure(() => s.checkDelete!('', 'system-node-critical')).toStatus()).to.deep.include({
      code: 403, reason: 'Forbidden',
      message: 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted' });
    expect(() => s.checkDelete!('', 'p')).not.to.throw();
  });

  it('prints upstream\'s columns', () => {
    const fx = tableFixture('scheduling.k8s.io_v1', 'PriorityClass');
    expect(priorityclasses.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    const { response } = objectFixture('scheduling.k8s.io_v1', 'PriorityClass', 'fixtures-pc');
    response.metadata.creationTimestamp = new Date().toISOString();
    expect(priorityclasses.table!.cells(response)).to.deep.equal(fx.rows[0]);
    const sys = createThrough(priorityclasses, systemPriorityClasses[0]);
    expect(priorityclasses.table!.cells(sys).slice(0, 3)).to.deep.equal(fx.rows[2].slice(0, 3));
  });
});
