import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import { leases } from './index.js';

describe('leases', () => {
  it('declares upstream discovery data and write rules', () => {
    expect(leases).to.include({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', singular: 'lease', namespaced: true });
    expect(leases.shortNames).to.equal(undefined);
    expect(leases.strategy.allowCreateOnUpdate).to.equal(true);
    expect(leases.strategy.allowUnconditionalUpdate).to.equal(false);
  });

  it('rejects non-positive durations and negative transitions', () => {
    const errs = leases.strategy.validate({ metadata: { name: 'l', namespace: 'ns' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } }, {});
    expect(errs.map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('prints NAME HOLDER AGE', () => {
    expect(leases.table!.columns.map((c) => c.name)).to.deep.equal(['Name', 'Holder', 'Age']);
    expect(leases.table!.cells({ metadata: { name: 'kube-scheduler' }, spec: { holderIdentity: 'node-1_abc' } }))
      .to.deep.equal(['kube-scheduler', 'node-1_abc', '<unknown>']);
  });
});
