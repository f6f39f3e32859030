import { expect } from 'chai';
import { GoJsonError, checkJsonSyntax, goQuoteChar, parseJsonLikeGo } from './go-json.js';
import { goFormat, goTypeName } from './json-value.js';

function syntaxMessage(input: string): string | undefined {
  try {
    checkJsonSyntax(Buffer.from(input, 'utf8'));
    return undefined;
  } catch (e) {
    expect(e).to.be.instanceOf(GoJsonError);
    return (e as Error).message;
  }
}

describe('patch: Go-compatible JSON syntax errors', () => {
  const cases: Array<[string, string | undefined]> = [
    ['{}', undefined],
    [' [1, -2.5e+3, "x\\u00e9\\n", true, false, null, {"a": {}}] ', undefined],
    ['', 'unexpected end of JSON input'],
    ['  \n', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['"abc', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['1.', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', 'invalid character \'"\' after object key:value pair'],
    ['[1 2]', "invalid character '2' after array element"],
    ['{,}', "invalid character ',' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['[,]', "invalid character ',' looking for beginning of value"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['fals!', "invalid character '!' in literal false (expecting 'e')"],
    ['nil', "invalid character 'i' in literal null (expecting 'u')"],
    ['01', "invalid character '1' after top-level value"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['-a', "invalid character 'a' in numeric literal"],
    ['1.a', "invalid character 'a' after decimal point in numeric literal"],
    ['1ea', "invalid character 'a' in exponent of numeric literal"],
    ['"\u0001"', "invalid character '\\x01' in string literal"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['[1]]', "invalid character ']' after top-level value"],
  ];
  for (const [input, want] of cases) {
    it(`${JSON.stringify(input)} -> ${want ?? 'valid'}`, () => {
      expect(syntaxMessage(input)).to.equal(want);
    });
  }

  it('limits nesting depth like Go', () => {
    expect(syntaxMessage('['.repeat(10000) + ']'.repeat(10000))).to.equal(undefined);
    expect(syntaxMessage('['.repeat(10001))).to.equal("invalid character '[' exceeded max depth");
  });

  it('parses strings and bytes', () => {
    expect(parseJsonLikeGo('{"a":[1,"é"]}')).to.deep.equal({ a: [1, 'é'] });
    expect(parseJsonLikeGo(Buffer.from('{"a":null}'))).to.deep.equal({ a: null });
  });

  it('quotes bytes as Go does', () => {
    expect(goQuoteChar(0x22)).to.equal('\'"\'');
    expect(goQuoteChar(0x5c)).to.equal("'\\\\'");
    expect(goQuoteChar(0x7f)).to.equal("'\\x7f'");
    expect(goQuoteChar(0xe9)).to.equal("'é'");
  });
});

describe('patch: Go value formatting', () => {
  it('renders %v like fmt', () => {
    expect(goFormat({ b: [1, 'x'], a: null, c: { d: true } })).to.equal('map[a:<nil> b:[1 x] c:map[d:true]]');
    expect(goFormat(1.5)).to.equal('1.5');
    expect(goFormat(0.00001)).to.equal('1e-05');
    expect(goFormat(1234567.5)).to.equal('1.2345675e+06');
    expect(goFormat(12345678901234)).to.equal('12345678901234');
    expect(goFormat(1, 's')).to.equal('%!s(int64=1)');
    expect(goFormat('merge', 's')).to.equal('merge');
  });

  it('names Go types', () => {
    expect(goTypeName({})).to.equal('map[string]interface {}');
    expect(goTypeName([])).to.equal('[]interface {}');
    expect(goTypeName('s')).to.equal('string');
    expect(goTypeName(2)).to.equal('int64');
    expect(goTypeName(2.5)).to.equal('float64');
    expect(goTypeName(null)).to.equal('%!s(<nil>)');
  });
});
