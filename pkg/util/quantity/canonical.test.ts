import { expect } from 'chai';
import { canonicalQuantityString, Quantity } from './index.js';

// Expected strings from upstream's quantity_test.go (TestQuantityString's canonical forms
// and their alternates, TestQuantityParseEmit, and TestQuantityParse's values printed).
describe('canonicalQuantityString', () => {
  const alternates: Array<[string, string]> = [
    ['1Gi', '1024Mi'], ['300Mi', '307200Ki'], ['1001Gi', '1025024Mi'], ['1Ti', '1024Gi'], ['5', '5000m'], ['500m', '0.5'],
    ['1G', '1000M'], ['1G', '0.001T'], ['1m', '1000u'], ['1080m', '1.08'], ['1080m', '1080000000n'], ['1e21', '1000E'],
    ['5e21', '5000E'], ['1e24', '1000000E'], ['1e9', '.001e12'], ['1e-3', '0.001e0'], ['1e-9', '1000e-12'], ['0', '00'],
  ];
  const canonicalForms = [
    '6Ki', '80m', '300M', '1T', '1E', '1234567M', '3k', '1025', '0', '80e-3', '300e6', '1e12', '1e3', '3e3',
    '1n', '80n', '1080n', '1u', '80u', '1080u', '10e69', '20e69', '1e72', '1234567m',
  ];

  it('prints every alternate spelling as its canonical form, signed or not', () => {
    for (const [want, input] of alternates) {
      expect(canonicalQuantityString(input), input).to.equal(want);
      if (want !== '0') expect(canonicalQuantityString(`-${input}`), `-${input}`).to.equal(`-${want}`);
    }
  });

  it('keeps a canonical form as written', () => {
    for (const s of [...canonicalForms, ...alternates.map(([want]) => want)]) {
      expect(canonicalQuantityString(s), s).to.equal(s);
      if (s !== '0') expect(canonicalQuantityString(`-${s}`), `-${s}`).to.equal(`-${s}`);
    }
  });

  it('prints parsed values as upstream emits them', () => {
    const cases: Array<[string, string]> = [
      ['1Ki', '1Ki'], ['1Mi', '1Mi'], ['1024Mi', '1Gi'], ['1000M', '1G'], ['.001Ki', '1024m'], ['.000001Ki', '1024u'],
      ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'], ['-.001Ki', '-1024m'], ['-.000000000001Ki', '-2n'],
      // Rounding up to the nano, the BinarySI cap and fractional binary values.
      ['3.001n', '4n'], ['1.1E-9', '2e-9'], ['0.5e-9', '1e-9'], ['0.00000012345', '124n'], ['0.0000000001', '1n'],
      ['9Ei', '9223372036854775807'], ['9223372036854775807Ki', '9223372036854775807'], ['12E', '12E'],
      ['100.035Ki', '102435840m'], ['0.5Mi', '512Ki'], ['0.05Gi', '53687091200m'], ['0.000000000001Ki', '2n'],
      ['1.2e3', '1200'], ['1.3E+6', '1300e3'], ['0.5e-1', '50e-3'], ['10.035M', '10.035M'], ['8.1k', '8100'],
      // The cases this server met: requests and limits as people write them.
      ['1000m', '1'], ['0.5Gi', '512Mi'], ['2000', '2k'], ['1.5', '1500m'], ['100m', '100m'], ['1536Mi', '1536Mi'],
      ['0.5Ki', '512'], ['1.5Ki', '1536'], ['1e3', '1e3'], ['0Mi', '0'], ['-0', '0'], ['0.0', '0'], ['1000e-3', '1'],
      // ParseQuantity keeps a text its fast path finds canonical, sign and leading zeros included.
      ['+1', '+1'], ['01Mi', '01Mi'], ['007', '007'], ['1.', '1.'], ['1.G', '1.G'], ['1E+3', '1E+3'], ['.5', '500m'],
    ];
    for (const [input, want] of cases) expect(canonicalQuantityString(input), input).to.equal(want);
  });

  it('leaves what is not a quantity, and answers huge exponents at once', () => {
    for (const bad of ['', 'abc', '1x', '1.2.3', 'Gi', '1Ki2', '1e', '--1']) expect(canonicalQuantityString(bad), bad).to.equal(undefined);
    expect(canonicalQuantityString('1e999999999')).to.equal('1e999999999');
    expect(canonicalQuantityString('1000e999999999')).to.equal('1e1000000002');
    expect(canonicalQuantityString('5e-999999999')).to.equal('1e-9');
    expect(Quantity.parse('5e-999999999')!.toString()).to.equal('1e-9');
    expect(Quantity.parse('1000E')!.toString()).to.equal('1e21');
    // A million digits: bounded, so no BigInt of that length is parsed (it took about 0.35 s).
    expect(Quantity.parse(`1${'0'.repeat(1_000_000)}`)!.cmp(Quantity.parse('1e999')!)).to.equal(1);
    expect(Quantity.parse(`0.${'0'.repeat(1_000_000)}1`)!.toString()).to.equal('1n');
    expect(Quantity.parse('0.5Ki')!.format).to.equal('BinarySI');
    expect(Quantity.parse('0.0001Ki')!.format).to.equal('DecimalSI');
  });
});
