import { expect } from 'chai';
import { duplicateJsonKeys, floatLiterals, scanJsonKeys } from './json-keys.js';
import { decodeYamlBody } from './yaml-body.js';
import { keysAppearOnce } from './repeated-keys.js';
import {
  dropUnknownFields, goValueString, jsonBodyIssues, jsonDuplicateIssues, jsonPatchOperationIssues, sortedUnknownIssues,
  strictMessages, warningHeader, warningTexts,
} from './index.js';

const configMap = { group: '', version: 'v1', kind: 'ConfigMap' };
const role = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' };

describe('fieldvalidation', () => {
  it('finds numbers written with a fraction or an exponent, with their paths, and not in strings', () => {
    const text = '{"a":3.0,"l":[1, 2e1 ,{"x":-0.5E-3}],"b":true,"c":false,"i":10,"s":"x\\": 1.5","t":"[1.5,2.5]"}';
    expect(floatLiterals(text)).to.deep.equal([
      { path: ['a'], text: '3.0' }, { path: ['l', 1], text: '2e1' }, { path: ['l', 2, 'x'], text: '-0.5E-3' },
    ]);
    // Float-looking text in strings only (an image tag, an address): nothing, whether or not the pre-check matched.
    expect(floatLiterals('{"image":"nginx:1.25","ip":"10.0.0.1","n":1,"b":true}')).to.deep.equal([]);
    expect(floatLiterals('{"s":"a\\":1.5"}')).to.deep.equal([]);
  });

  it('finds integers of 16 digits or more too (a double is not the literal past 2^53)', () => {
    expect(floatLiterals('{"a":123456789012345,"b":[-9223372036854775808],"c":1234567890123456}')).to.deep.equal([
      { path: ['b', 0], text: '-9223372036854775808' }, { path: ['c'], text: '1234567890123456' },
    ]);
  });

  it('scans JSON keys with strict-decoder paths and repeats', () => {
    const text = '{"a":{"b":1,"b":2},"l":[{"x":1},{"x":2,"x":3}],"s":"{\\"no\\":1}"}';
    expect(scanJsonKeys(text).map((o) => `${o.path}${o.duplicate ? '!' : ''}`)).to.deep.equal(['a', 'a.b', 'a.b!', 'l', 'l[0].x', 'l[1].x', 'l[1].x!', 's']);
    expect(scanJsonKeys('[{"op":"add","path":"/a","path":"/b"}]').map((o) => `${o.path}${o.duplicate ? '!' : ''}`)).to.deep.equal(['[0].op', '[0].path', '[0].path!']);
  });

  it('finds the repeated keys alone as the full scan does, with the same paths and places', () => {
    for (const text of [
      '{"a":{"b":1,"b":2},"l":[{"x":1},{"x":2,"x":3}],"s":"{\\"no\\":1}"}',
      '[{"op":"add","path":"/a","path":"/b"}]',
      '{"a":"plain","b":"x\\\\","b":"\\"\\"","c":"after","c":{"d\\\\":"\\\\\\"","d\\\\":"end"}}',
      '{"metadata":{"name":"a"},"data":{"k":"1"}}',
    ]) {
      expect(duplicateJsonKeys(text), text).to.deep.equal(scanJsonKeys(text).filter((o) => o.duplicate));
    }
    expect(duplicateJsonKeys('{"a":[{"b":{"c":1,"c":2}}]}')).to.deep.equal([{ path: 'a[0].b.c', duplicate: true, order: 3 }]);
  });

  it('knows a document repeats no key only when none repeats, whatever its strings, escapes and spacing hold', () => {
    const cases: Array<[string, boolean]> = [
      ['{"a":{"b":1,"b":2},"l":[{"x":1},{"x":2,"x":3}],"s":"{\\"no\\":1}"}', false],
      ['[{"op":"add","path":"/a","path":"/b"}]', false],
      ['{"a":"plain","b":"x\\\\","b":"\\"\\"","c":"after","c":{"d\\\\":"\\\\\\"","d\\\\":"end"}}', false],
      ['{ "a" : 1 , "\\u0061" : -2.5e3,\n\t"q\\"k": [ true , false,null, {} ,[ ] ], "e": {}, "n": {"x": null}}', false],
      ['{"a":1, "b" : 2, "b":3}', false],
      ['{"a":":","a":1}', false],
      ['{"k":"\\":", "k":1}', false],
      ['{"__proto__":{"x":1},"__proto__":{"x":2}}', false],
      ['{"metadata":{"name":"a"},"data":{"k":"1"}}', true],
      // Colons inside strings, keys spaced from their colons, escaped quotes.
      ['{"image":"nginx:1.25","t":"2024-01-01T00:00:00Z","d" :\t{"e"\n: "f:"},"s":"a\\"b"}', true],
      ['[]', true], ['{}', true], ['"s:"', true], ['[{},{"a":[{"b":{}}]}]', true],
      // A string opening with a colon counts as one key more: not known, so scanned.
      ['{"a":{"b":":c"}}', false],
    ];
    for (const [text, once] of cases) {
      expect(keysAppearOnce(text, JSON.parse(text)), text).to.equal(once);
      if (once) expect(duplicateJsonKeys(text), text).to.deep.equal([]);
    }
    const deep = `${'['.repeat(300)}{"a":1}${']'.repeat(300)}`;
    expect(keysAppearOnce(deep, JSON.parse(deep)), 'past the depth it counts to').to.equal(false);
  });

  it('decodes escaped keys (a repeat spelled with an escape is a repeat) and steps over whitespace, literals and empty values', () => {
    const text = '{ "a" : 1 , "\\u0061" : -2.5e3,\n\t"q\\"k": [ true , false,null, {} ,[ ] ], "e": {}, "n": {"x": null}, "s": "a\\\\"\r\n}';
    expect(scanJsonKeys(text).map((o) => `${o.path}${o.duplicate ? '!' : ''}`)).to.deep.equal(['a', 'a!', 'q"k', 'e', 'n', 'n.x', 's']);
  });

  it('finds the end of each string whether or not an escape comes before it, after it or inside it', () => {
    const text = '{"a":"plain","b":"x\\\\","b":"\\"\\"","c":"after","c":{"d\\\\":"\\\\\\"","d\\\\":"end"}}';
    expect(scanJsonKeys(text).map((o) => `${o.path}${o.duplicate ? '!' : ''}`)).to.deep.equal(['a', 'b', 'b!', 'c', 'c!', 'c.d\\', 'c.d\\!']);
  });

  it('orders unknown and duplicate fields of a JSON body as they appear; an unknown repeat counts once', () => {
    const text = '{"metadata":{"name":"a","name":"b","zz":1},"kind":"ConfigMap","extra":1,"extra":2,"data":{"k":"1","k":"2"}}';
    expect(jsonBodyIssues(configMap, text, JSON.parse(text))).to.deep.equal([
      'duplicate field "metadata.name"', 'unknown field "metadata.zz"', 'unknown field "extra"', 'duplicate field "data.k"',
    ]);
  });

  it('walks re-encoded objects in sorted key order and reaches list items', () => {
    const obj = { z: 1, rules: [{ verbs: ['get'], bogus: true }], a: 2 };
    expect(sortedUnknownIssues(role, obj)).to.deep.equal(['unknown field "a"', 'unknown field "rules[0].bogus"', 'unknown field "z"']);
  });

  it('reports YAML repeats with their line and keeps the later value', () => {
    const body = decodeYamlBody('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n');
    expect(body.value).to.deep.equal({ a: 3, b: { c: 2 } });
    expect(body.duplicateLines).to.deep.equal(['line 4: key "c" already set in map', 'line 5: key "a" already set in map']);
    const report = { yamlLines: body.duplicateLines, errors: ['unknown field "x"'] };
    expect(strictMessages(report)).to.deep.equal(['yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map', 'unknown field "x"']);
    expect(warningTexts(report)).to.deep.equal(['line 4: key "c" already set in map', 'line 5: key "a" already set in map', 'unknown field "x"']);
  });

  it('checks JSON patch operations and patch bodies', () => {
    const jp = '[{"op":"add","path":"/a","value":{"k":1,"k":2},"foo":1},{"op":"test","path":"/x","path":"/y"}]';
    expect(jsonPatchOperationIssues(jp, JSON.parse(jp))).to.deep.equal([
      'json patch duplicate field "[0].value.k"', 'json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"',
    ]);
    expect(jsonDuplicateIssues('{"spec":{"a":1,"a":2}}')).to.deep.equal(['duplicate field "spec.a"']);
  });

  it('drops undeclared fields at every depth', () => {
    const obj = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', junk: 1 }, rules: [{ verbs: ['get'], junk: 2 }], junk: 3 };
    dropUnknownFields(role, obj);
    expect(obj).to.deep.equal({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [{ verbs: ['get'] }] });
  });

  it('formats warnings and Go values as upstream', () => {
    expect(warningHeader('unknown field "spec.foo"')).to.equal('299 - "unknown field \\"spec.foo\\""');
    expect(warningHeader('a\\b')).to.equal('299 - "a\\\\b"');
    expect(goValueString({ spec: { b: [1, 'x'], a: null }, z: true })).to.equal('map[spec:map[a:<nil> b:[1 x]] z:true]');
  });
});
