import { expect } from 'chai';
import { addOrUpdateToleration, isSuperset, mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';

describe('tolerations', () => {
  const all = { operator: 'Exists' };
  const fooExists = { key: 'foo', operator: 'Exists' };
  const fooBar = { key: 'foo', operator: 'Equal', value: 'bar' };
  const fooBarNoSched = { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' };
  const noExec10 = { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
  const noExec = { key: 'foo', operator: 'Exists', effect: 'NoExecute' };

  it('isSuperset follows upstream', () => {
    expect(isSuperset(all, fooBarNoSched)).to.equal(true);
    expect(isSuperset(fooExists, fooBar)).to.equal(true);
    expect(isSuperset(fooBar, fooBarNoSched)).to.equal(true);
    expect(isSuperset(fooBarNoSched, fooBar)).to.equal(false);
    expect(isSuperset(noExec, noExec10)).to.equal(true);
    expect(isSuperset(noExec10, noExec)).to.equal(false);
    expect(isSuperset({ key: 'foo', value: 'bar' }, fooBar)).to.equal(true);
    expect(isSuperset(fooBar, { key: 'foo', value: 'bar' })).to.equal(false);
  });

  it('mergeTolerations keeps supersets and the first of equals', () => {
    expect(mergeTolerations([fooBar], [fooExists])).to.deep.equal([fooExists]);
    expect(mergeTolerations([fooBar, fooBarNoSched], [{ ...fooBar }])).to.deep.equal([fooBar]);
    expect(mergeTolerations([noExec10], [fooBarNoSched])).to.deep.equal([noExec10, fooBarNoSched]);
  });

  it('verifyAgainstWhitelist allows everything with an empty whitelist', () => {
    expect(verifyAgainstWhitelist([fooBar], [])).to.equal(true);
    expect(verifyAgainstWhitelist([fooBar, noExec10], [fooExists])).to.equal(true);
    expect(verifyAgainstWhitelist([fooBar, { key: 'x', operator: 'Exists' }], [fooExists])).to.equal(false);
  });

  it('addOrUpdateToleration replaces a matching toleration that differs and skips an identical one', () => {
    const spec: Record<string, unknown> = { tolerations: [fooBar, { ...noExec10 }] };
    expect(addOrUpdateToleration(spec, { ...noExec10, tolerationSeconds: 20 })).to.equal(true);
    expect(spec.tolerations).to.deep.equal([fooBar, { ...noExec10, tolerationSeconds: 20 }]);
    expect(addOrUpdateToleration(spec, { ...fooBar })).to.equal(false);
    expect(addOrUpdateToleration(spec, all)).to.equal(true);
    expect(spec.tolerations).to.have.length(3);
  });
});
