import { expect } from 'chai';
import { goUnmarshalMapError } from './gojson.js';

describe('goUnmarshalMapError', () => {
  const cases: Array<[string, string | undefined]> = [
    ['{"auths":{}}', undefined],
    [' null ', undefined],
    ['', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{a}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', "invalid character '\"' after object key:value pair"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":"\n"}', "invalid character '\\n' in string literal"],
    ['[]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['"s"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['12', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
  ];
  for (const [input, want] of cases) {
    it(JSON.stringify(input), () => expect(goUnmarshalMapError(Buffer.from(input))).to.equal(want));
  }
});
