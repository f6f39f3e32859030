import { expect } from 'chai';
import { END, JsonTokens, MalformedJsonError, SCALAR, STRING } from './json-tokens.js';

/** Every token of `text` as [kind, text as written], strings also with their decoded value. */
function tokensOf(text: string): Array<[string, string] | [string, string, string]> {
  const tokens = new JsonTokens(text);
  const out: Array<[string, string] | [string, string, string]> = [];
  for (let t = tokens.next(); t !== END; t = tokens.next()) {
    if (t === STRING) out.push(['string', tokens.raw(), tokens.string()]);
    else if (t === SCALAR) out.push(['scalar', tokens.raw()]);
    else out.push([String.fromCharCode(t), tokens.raw()]);
  }
  return out;
}

const malformedAt = (text: string, at: number): void => {
  expect(() => tokensOf(text), text).to.throw(MalformedJsonError).with.property('at', at);
};

describe('util: JSON tokens', () => {
  it('reads punctuation, strings and scalars with where each starts and ends, whitespace skipped', () => {
    const text = ' {"a" :\t[1, true,false ,null],\r\n"b":{}}\n';
    expect(tokensOf(text)).to.deep.equal([
      ['{', '{'], ['string', '"a"', 'a'], [':', ':'], ['[', '['], ['scalar', '1'], [',', ','], ['scalar', 'true'],
      [',', ','], ['scalar', 'false'], [',', ','], ['scalar', 'null'], [']', ']'], [',', ','],
      ['string', '"b"', 'b'], [':', ':'], ['{', '{'], ['}', '}'], ['}', '}'],
    ]);
    const tokens = new JsonTokens(text);
    tokens.next();
    expect(tokens.next()).to.equal(STRING);
    expect([tokens.start, tokens.end]).to.deep.equal([2, 5]);
    expect(tokens.next()).to.equal(':'.charCodeAt(0));
    expect([tokens.start, tokens.end]).to.deep.equal([6, 7]);
  });

  it('decodes escapes, an escaped quote or backslash ending nothing early', () => {
    expect(tokensOf(String.raw`["a\"b", "c\\", "\\\"", "\n\t\/\b\f\r", "plain"]`).filter((t) => t[0] === 'string')).to.deep.equal([
      ['string', String.raw`"a\"b"`, 'a"b'],
      ['string', String.raw`"c\\"`, 'c\\'],
      ['string', String.raw`"\\\""`, '\\"'],
      ['string', String.raw`"\n\t\/\b\f\r"`, '\n\t/\b\f\r'],
      ['string', '"plain"', 'plain'],
    ]);
  });

  it('decodes unicode escapes, surrogate pairs and lone surrogates as JSON.parse does', () => {
    const text = String.raw`["\u0041", "\u00e9t\u00E9", "\ud83d\ude00", "\ud800", "\u2028<"]`;
    const strings = tokensOf(text).filter((t) => t[0] === 'string').map((t) => t[2]);
    expect(strings).to.deep.equal(JSON.parse(text));
    expect(strings[0]).to.equal('A');
    expect(strings[2]).to.equal('\u{1f600}');
  });

  it('reads strings nested as text in strings, and brackets inside strings, as one token each', () => {
    const text = String.raw`{"k":"{\"inner\":[\"x\"]}","l":"]}[{,:"}`;
    expect(tokensOf(text)).to.deep.equal([
      ['{', '{'], ['string', '"k"', 'k'], [':', ':'], ['string', String.raw`"{\"inner\":[\"x\"]}"`, '{"inner":["x"]}'],
      [',', ','], ['string', '"l"', 'l'], [':', ':'], ['string', '"]}[{,:"', ']}[{,:'], ['}', '}'],
    ]);
  });

  it('a string after one with an escape, and one far from any, are told apart (the remembered backslash)', () => {
    const text = `["\\\\", "${'x'.repeat(1000)}", "y\\u0022", "z"]`;
    expect(tokensOf(text).filter((t) => t[0] === 'string').map((t) => t[2])).to.deep.equal(['\\', 'x'.repeat(1000), 'y"', 'z']);
  });

  it('reads every form of JSON number as written', () => {
    const numbers = ['0', '-0', '7', '-12', '3.0', '0.5', '-0.25', '1e5', '1E+5', '2.5e-3', '12345678901234567890', '-9223372036854775808'];
    expect(tokensOf(`[${numbers.join(',')}]`).filter((t) => t[0] === 'scalar').map((t) => t[1])).to.deep.equal(numbers);
    expect(tokensOf('42')).to.deep.equal([['scalar', '42']]);
    expect(tokensOf('{"n":-1.5e10}')[3]).to.deep.equal(['scalar', '-1.5e10']);
  });

  it('throws MalformedJsonError where the text holds no token, and ends on any text', () => {
    malformedAt('["abc', 1); // unterminated
    malformedAt('["ab\\"', 1); // the only quote after is escaped
    malformedAt('"ab\\', 0); // a backslash last
    malformedAt('[1, @]', 4);
    malformedAt('{"a": undefined}', 6);
    malformedAt('[tru]', 1);
    malformedAt('[truest]', 1);
    malformedAt('[nul', 1);
    for (const number of ['01', '-', '1.', '.5', '1e', '1e+', '+1', '--1', '1.5.2', '0x10', 'Infinity', 'NaN']) {
      malformedAt(`[${number}]`, 1);
    }
    // A bad escape is found when the string is decoded.
    const tokens = new JsonTokens(String.raw`"a\x"`);
    expect(tokens.next()).to.equal(STRING);
    expect(() => tokens.string()).to.throw(MalformedJsonError);
    // The grammar is the caller's: tokens in an order JSON does not allow are still tokens.
    expect(tokensOf('}{:,]').map((t) => t[0])).to.deep.equal(['}', '{', ':', ',', ']']);
    expect(tokensOf('')).to.deep.equal([]);
    expect(tokensOf('  \n')).to.deep.equal([]);
  });
});
