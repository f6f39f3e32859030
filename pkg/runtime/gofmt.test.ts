import { expect } from 'chai';
import { goQuote, goQuoteSlice, goValue, isPrintable } from './gofmt.js';

describe("Go's %q and unicode.IsPrint", () => {
  it('quotes printable ASCII as JSON does and escapes the rest as strconv.Quote', () => {
    expect(goQuote('plain "x" \\ ~')).to.equal('"plain \\"x\\" \\\\ ~"');
    expect(goQuote('a\u0007b"\\é')).to.equal('"a\\ab\\"\\\\é"');
    expect(goQuote('\u0001\u007f\n\t')).to.equal('"\\x01\\x7f\\n\\t"');
    // Not printable for Go: non-ASCII spaces, format characters, unpaired surrogates.
    expect(goQuote('a\u00a0b\u2028c\u200bd')).to.equal('"a\\u00a0b\\u2028c\\u200bd"');
    expect(goQuote('\u{e0001}')).to.equal('"\\U000e0001"');
    expect(goQuote('日本 ✓ 😀')).to.equal('"日本 ✓ 😀"');
  });

  it("prints a []string with %q as Go does, and field.Error's string values through it", () => {
    expect(goQuoteSlice(['a', 'b\u0007'])).to.equal('["a" "b\\a"]');
    expect(goQuoteSlice([])).to.equal('[]');
    expect(goValue('a\u0007b')).to.equal('"a\\ab"');
  });

  it('prints an int64 past 2^53 with all its digits, as %v of an int64', () => {
    expect(goValue(-(2 ** 63))).to.equal('-9223372036854775808');
    expect(goValue(2 ** 60)).to.equal('1152921504606846976');
    expect(goValue(1.5)).to.equal('1.5');
  });

  it('takes letters, marks, numbers, punctuation, symbols and the ASCII space as printable', () => {
    expect(['a', 'é', '\u0301', '٣', '—', '€', ' '].map(isPrintable)).to.deep.equal([true, true, true, true, true, true, true]);
    expect(['\t', '\u00a0', '\u3000', '\u200b', '\u0085'].map(isPrintable)).to.deep.equal([false, false, false, false, false]);
  });
});
