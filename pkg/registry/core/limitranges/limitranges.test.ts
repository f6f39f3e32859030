import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { limitranges } from './index.js';

describe('limitranges', () => {
  it('declares upstream discovery data', () => {
    expect(limitranges).to.include({ kind: 'LimitRange', plural: 'limitranges', namespaced: true });
    expect(limitranges.shortNames).to.deep.equal(['limits']);
  });

  it('reproduces upstream\'s created lr (defaultRequest from default)', () => {
    const { request, response } = objectFixture('v1', 'LimitRange', 'lr');
    expect(createThrough(limitranges, request, 'fixtures')).to.deep.equal(withoutVolatile(response));
  });

  it('a Container item\'s default comes from max, defaultRequest from default then min', () => {
    const obj: KubeObject = { metadata: { name: 'l' }, spec: { limits: [
      { type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' }, default: { memory: '512Mi' } },
      { type: 'Pod', max: { cpu: '2' } },
    ] } };
    limitranges.strategy.applyDefaults(obj);
    expect((obj.spec as { limits: unknown[] }).limits).to.deep.equal([
      { type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
        default: { memory: '512Mi', cpu: '1' }, defaultRequest: { memory: '512Mi', cpu: '1', 'ephemeral-storage': '1Gi' } },
      { type: 'Pod', max: { cpu: '2' } },
    ]);
    expect(limitranges.strategy.validate({ metadata: { name: 'l', namespace: 'n' }, spec: { limits: [{ type: 'Pod', max: { cpu: '-1' } }] } }, {})
      .map((e) => fieldErrorMessage(e))).to.deep.equal(['spec.limits[0].max[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
  });

  it('prints upstream\'s default table', () => {
    const fx = tableFixture('v1', 'LimitRange');
    expect(limitranges.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    expect(limitranges.table!.cells(objectFixture('v1', 'LimitRange', 'lr').response)).to.deep.equal(fx.rows[0]);
  });
});
