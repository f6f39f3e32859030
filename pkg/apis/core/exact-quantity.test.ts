import { expect } from 'chai';
import { canonical, canonicalQuantity, parse } from './exact-quantity.js';

describe('exact quantities', () => {
  it('prints quantities in upstream\'s canonical form', () => {
    const cases: Array<[string, string]> = [
      ['1000m', '1'], ['1500m', '1500m'], ['0.5', '500m'], ['1', '1'], ['1000', '1k'], ['1500', '1500'],
      ['1024Mi', '1Gi'], ['1536Mi', '1536Mi'], ['0.5Gi', '512Mi'], ['0.5Ki', '512'], ['2e3', '2e3'], ['100M', '100M'], ['0', '0'],
    ];
    for (const [input, want] of cases) expect(canonicalQuantity(input), input).to.equal(want);
  });

  it('compares exactly across formats', () => {
    expect(parse('1Gi')!.nano).to.equal(parse('1073741824')!.nano);
    expect(parse('100m')!.nano + parse('0.2')!.nano).to.equal(parse('300m')!.nano);
    expect(canonical({ nano: parse('1')!.nano * 3n, format: 'DecimalSI' })).to.equal('3');
    expect(parse('abc')).to.equal(undefined);
  });

  it('answers at once for exponents far out of range (10^N is never built for them)', () => {
    expect(parse('1e-99999999')!.nano).to.equal(1n);
    expect(parse('1e99999999')!.nano > parse('1E')!.nano).to.equal(true);
    expect(canonicalQuantity('1e99999999')).to.equal('1e99999999');
  });
});
