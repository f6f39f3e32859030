import { expect } from 'chai';
import { goJson, goJsonText } from './go-escapes.js';

describe('goJson: JSON as Go\'s encoder writes it', () => {
  it('escapes <, >, & and U+2028 / U+2029 in values and keys, \\b and \\f as \\u0008 / \\u000c', () => {
    expect(goJson({ 'a<b': 'x>y&z\u2028\u2029', c: ['\b\f'] })).to.equal('{"a\\u003cb":"x\\u003ey\\u0026z\\u2028\\u2029","c":["\\u0008\\u000c"]}');
  });

  it('leaves other escapes alone: an escaped backslash before b or f stays what it is', () => {
    const text = JSON.stringify({ path: 'C:\\bin\\foo', q: '"\n\t\u0001', e: 'é€' });
    expect(goJsonText(text)).to.equal(text);
    expect(goJson({ p: '\\\b' })).to.equal('{"p":"\\\\\\u0008"}');
    expect(goJson({ p: '\\u003c' })).to.equal('{"p":"\\\\u003c"}');
  });

  it('returns the very text when nothing differs, and indents as MarshalIndent when pretty', () => {
    const text = JSON.stringify({ a: 'plain', n: 1 });
    expect(goJsonText(text)).to.equal(text);
    expect(goJson({ a: { b: '<' } }, true)).to.equal('{\n  "a": {\n    "b": "\\u003c"\n  }\n}');
  });

  it('writes a lone surrogate as U+FFFD, as Go holds it once decoded; a pair, and text that only looks like the escape, as they are', () => {
    expect(goJson({ hi: 'a\ud800b', lo: '\udfffc', two: '\ud83d\ud83d', swapped: '\ude00\ud83d' }))
      .to.equal('{"hi":"a\ufffdb","lo":"\ufffdc","two":"\ufffd\ufffd","swapped":"\ufffd\ufffd"}');
    expect(goJson({ pair: '\ud83d\ude00<' })).to.equal('{"pair":"\ud83d\ude00\\u003c"}');
    expect(goJson({ text: '\\ud800', both: '\\\ud800' })).to.equal('{"text":"\\\\ud800","both":"\\\\\ufffd"}');
    expect(goJson({ ['\udbff']: 1 })).to.equal('{"\ufffd":1}');
  });

  it('parses back to the same value', () => {
    const v = { s: 'a<b>&c\u2028d\u2029e\bf\fg\\bh', k: { '&': [1, '\\f'] } };
    expect(JSON.parse(goJson(v))).to.deep.equal(v);
  });
});
