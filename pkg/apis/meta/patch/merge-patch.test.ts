import { expect } from 'chai';
import { applyMergePatch } from './merge-patch.js';
import { failure } from '../../../../test/harness/failure.js';

type Doc = Record<string, unknown>;


describe('patch: JSON merge patch (RFC 7386)', () => {
  // The RFC's appendix examples whose target is an object, plus upstream's quirks.
  const cases: Array<[string, Doc, unknown, Doc]> = [
    ['replaces a value', { a: 'b' }, { a: 'c' }, { a: 'c' }],
    ['adds a value', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    ['deletes with null', { a: 'b' }, { a: null }, {}],
    ['deletes one of several', { a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    ['replaces an array with a scalar', { a: ['b'] }, { a: 'c' }, { a: 'c' }],
    ['replaces a scalar with an array', { a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    ['merges nested objects', { a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    ['replaces arrays whole', { a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    ['keeps an existing null', { e: null }, { a: 1 }, { e: null, a: 1 }],
    ['prunes nulls from added objects', {}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ['prunes nulls in objects inside added arrays but keeps null items', {}, { a: [{ x: null, y: 1 }, null] }, { a: [{ y: 1 }, null] }],
    ['replaces an existing null', { a: null }, { a: { b: null, c: 1 } }, { a: { c: 1 } }],
    ['keeps nulls when an object is replaced by an array', { a: { x: 1 } }, { a: [{ x: null }] }, { a: [{ x: null }] }],
    ['merges into labels', { metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { b: null, c: '3' } } },
      { metadata: { labels: { a: '1', c: '3' } } }],
    ['ignores null for a missing key', { a: 1 }, { b: null }, { a: 1 }],
    ['accepts an empty patch', { a: 1 }, {}, { a: 1 }],
    ['accepts a raw body', { a: 1 }, '{"b":2}', { a: 1, b: 2 }],
    ['accepts raw bytes', { a: 1 }, Buffer.from('{"a":null}'), {}],
  ];
  for (const [name, original, patch, want] of cases) {
    it(name, () => {
      const copy = JSON.parse(JSON.stringify(original)) as Doc;
      expect(applyMergePatch(original, patch)).to.deep.equal(want);
      expect(original).to.deep.equal(copy);
    });
  }

  const bad: Array<[string, unknown]> = [
    ['malformed JSON', '{"a":'],
    ['a null patch', 'null'],
    ['a decoded null', null],
    ['a string', '"bar"'],
    ['a number', 5],
  ];
  for (const [name, patch] of bad) {
    it(`rejects ${name} with 400 Invalid JSON Patch`, () => {
      const err = failure(() => applyMergePatch({ a: 1 }, patch));
      expect(err.code).to.equal(400);
      expect(err.reason).to.equal('BadRequest');
      expect(err.message).to.equal('Invalid JSON Patch');
    });
  }

  it('reports an array patch as a document that is not an object', () => {
    const err = failure(() => applyMergePatch({ a: 1 }, '[{"x":null},2]'));
    expect(err.code).to.equal(422);
    expect(err.reason).to.equal('Invalid');
    expect(err.message).to.equal(' "" is invalid: patch: Invalid value: "[{},2]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  });
});
