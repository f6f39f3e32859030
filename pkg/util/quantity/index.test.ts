import { expect } from 'chai';
import { Quantity } from './index.js';

const q = (s: string) => Quantity.parse(s)!;

describe('Quantity', () => {
  it('prints upstream canonical forms', () => {
    const cases: Array<[string, string]> = [
      ['0', '0'], ['1', '1'], ['500m', '500m'], ['0.5', '500m'], ['1.5', '1500m'], ['1000m', '1'], ['2000', '2k'],
      ['1.5k', '1500'], ['1Gi', '1Gi'], ['1024Mi', '1Gi'], ['1.5Gi', '1536Mi'], ['100Ki', '100Ki'], ['512', '512'],
      ['1e3', '1e3'], ['129e6', '129e6'], ['1n', '1n'], ['0.1n', '1n'], ['10M', '10M'], ['-1', '-1'], ['1500u', '1500u'],
    ];
    for (const [input, want] of cases) expect(q(input).toString(), input).to.equal(want);
  });

  it('adds exactly and keeps the left format unless it is zero', () => {
    expect(q('500m').add(q('500m')).toString()).to.equal('1');
    expect(q('0.1').add(q('0.2')).toString()).to.equal('300m');
    expect(q('1Gi').add(q('1Gi')).toString()).to.equal('2Gi');
    expect(q('0').add(q('1Gi')).toString()).to.equal('1Gi');
    expect(q('1').add(q('1Gi')).toString()).to.equal('1073741825');
    expect(q('3').sub(q('1')).cmp(q('2'))).to.equal(0);
    expect(q('1Gi').cmp(q('1G'))).to.equal(1);
  });

  it('rejects what is not a quantity', () => {
    for (const bad of ['', 'abc', '1x', '1.2.3', '.', 'Gi']) expect(Quantity.parse(bad), bad).to.equal(undefined);
    expect(Quantity.parse(3)!.toString()).to.equal('3');
  });
});
