import { expect } from 'chai';
import { applyJsonPatch } from './json-patch.js';
import { failure } from '../../../../test/harness/failure.js';

type Doc = Record<string, unknown>;


const base = (): Doc => ({
  metadata: { name: 'cm', labels: { a: '1' }, finalizers: ['x', 'y', 'z'] },
  data: { k: 'v', n: null },
});

describe('patch: JSON patch (RFC 6902)', () => {
  const ok: Array<[string, unknown[], Doc]> = [
    ['add a new key', [{ op: 'add', path: '/data/k2', value: 'v2' }],
      { metadata: base().metadata, data: { k: 'v', n: null, k2: 'v2' } }],
    ['add replaces an existing key', [{ op: 'add', path: '/data/k', value: { deep: [1] } }],
      { metadata: base().metadata, data: { k: { deep: [1] }, n: null } }],
    ['add inserts into an array', [{ op: 'add', path: '/metadata/finalizers/1', value: 'w' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['x', 'w', 'y', 'z'] }, data: base().data }],
    ['add appends with -', [{ op: 'add', path: '/metadata/finalizers/-', value: 'end' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['x', 'y', 'z', 'end'] }, data: base().data }],
    ['add at index == length appends', [{ op: 'add', path: '/metadata/finalizers/3', value: 'end' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['x', 'y', 'z', 'end'] }, data: base().data }],
    ['add with a negative index counts from the end', [{ op: 'add', path: '/metadata/finalizers/-1', value: 'end' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['x', 'y', 'z', 'end'] }, data: base().data }],
    ['add without value adds null', [{ op: 'add', path: '/data/none' }],
      { metadata: base().metadata, data: { k: 'v', n: null, none: null } }],
    ['add with escaped key', [{ op: 'add', path: '/metadata/labels/example.com~1a~0b', value: 'x' }],
      { metadata: { ...base().metadata as Doc, labels: { a: '1', 'example.com/a~b': 'x' } }, data: base().data }],
    ['remove a key', [{ op: 'remove', path: '/metadata/labels/a' }],
      { metadata: { ...base().metadata as Doc, labels: {} }, data: base().data }],
    ['remove a null-valued key', [{ op: 'remove', path: '/data/n' }],
      { metadata: base().metadata, data: { k: 'v' } }],
    ['remove the last element with -1', [{ op: 'remove', path: '/metadata/finalizers/-1' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['x', 'y'] }, data: base().data }],
    ['replace a key', [{ op: 'replace', path: '/data/k', value: 'new' }],
      { metadata: base().metadata, data: { k: 'new', n: null } }],
    ['replace an element', [{ op: 'replace', path: '/metadata/finalizers/0', value: 'X' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['X', 'y', 'z'] }, data: base().data }],
    ['replace the whole document', [{ op: 'replace', path: '', value: { kind: 'Other' } }], { kind: 'Other' }],
    ['move a key', [{ op: 'move', from: '/data/k', path: '/metadata/labels/moved' }],
      { metadata: { ...base().metadata as Doc, labels: { a: '1', moved: 'v' } }, data: { n: null } }],
    ['move within an array', [{ op: 'move', from: '/metadata/finalizers/0', path: '/metadata/finalizers/-' }],
      { metadata: { ...base().metadata as Doc, finalizers: ['y', 'z', 'x'] }, data: base().data }],
    ['copy a subtree', [{ op: 'copy', from: '/metadata/labels', path: '/data/labels' }],
      { metadata: base().metadata, data: { k: 'v', n: null, labels: { a: '1' } } }],
    ['test then replace', [{ op: 'test', path: '/data/k', value: 'v' }, { op: 'replace', path: '/data/k', value: 'w' }],
      { metadata: base().metadata, data: { k: 'w', n: null } }],
    ['test a structure', [{ op: 'test', path: '/metadata/labels', value: { a: '1' } }], base()],
    ['test a structure with a key only the test value has (the library looks at the document\'s keys)',
      [{ op: 'test', path: '/metadata/labels', value: { a: '1', b: '2' } }], base()],
    ['test a missing key against null', [{ op: 'test', path: '/data/missing', value: null }], base()],
    ['test a null value against null', [{ op: 'test', path: '/data/n', value: null }], base()],
    ['test the whole document', [{ op: 'test', path: '', value: base() }], base()],
    ['no operations', [], base()],
  ];
  for (const [name, ops, want] of ok) {
    it(name, () => {
      const original = base();
      expect(applyJsonPatch(original, ops)).to.deep.equal(want);
      expect(original).to.deep.equal(base());
    });
  }

  const unprocessable: Array<[string, unknown[]]> = [
    ['add under a missing parent', [{ op: 'add', path: '/spec/x', value: 1 }]],
    ['add under a scalar', [{ op: 'add', path: '/metadata/name/x', value: 1 }]],
    ['add past the end of an array', [{ op: 'add', path: '/metadata/finalizers/4', value: 'w' }]],
    ['add with a non-numeric index', [{ op: 'add', path: '/metadata/finalizers/first', value: 'w' }]],
    ['add at the root', [{ op: 'add', path: '', value: {} }]],
    ['remove a missing key', [{ op: 'remove', path: '/data/missing' }]],
    ['remove an out-of-range element', [{ op: 'remove', path: '/metadata/finalizers/3' }]],
    ['remove through a null', [{ op: 'remove', path: '/data/n/x' }]],
    ['replace a missing key', [{ op: 'replace', path: '/data/missing', value: 1 }]],
    ['replace the root with a scalar', [{ op: 'replace', path: '', value: 3 }]],
    ['move from a missing path', [{ op: 'move', from: '/data/missing', path: '/data/x' }]],
    ['move into its own child', [{ op: 'move', from: '/metadata', path: '/metadata/labels/m' }]],
    ['copy from a missing path', [{ op: 'copy', from: '/data/missing', path: '/data/x' }]],
    ['a failed test', [{ op: 'test', path: '/data/k', value: 'other' }]],
    ['a test of a missing key against a value', [{ op: 'test', path: '/data/missing', value: 'v' }]],
    ['a test of a value against null', [{ op: 'test', path: '/data/k', value: null }]],
    ['a test of a structure missing a key the document has', [{ op: 'test', path: '/data', value: { k: 'v' } }]],
    ['a test of a structure whose key is null where the document\'s is not', [{ op: 'test', path: '/metadata/labels', value: { a: null } }]],
    ['an unknown op', [{ op: 'frobnicate', path: '/data/k' }]],
    ['a missing op', [{ path: '/data/k' }]],
    ['a null operation', [null]],
    ['a missing path', [{ op: 'remove' }]],
    ['a later failing operation', [{ op: 'add', path: '/data/a', value: 1 }, { op: 'remove', path: '/nope' }]],
  ];
  for (const [name, ops] of unprocessable) {
    it(`fails with upstream's opaque 422 on ${name}`, () => {
      const original = base();
      const err = failure(() => applyJsonPatch(original, ops));
      expect(err.code).to.equal(422);
      expect(err.reason).to.equal('Invalid');
      expect(err.message).to.equal('the server rejected our request due to an error in our request');
      // NewGenericServerResponse sets details with nothing in them: written as {}.
      expect(err.toStatus()).to.deep.equal({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422,
      });
      expect(original).to.deep.equal(base());
    });
  }

  const badRequest: Array<[string, unknown, string]> = [
    ['an object body', '{"op":"add"}', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['a decoded object', { op: 'add' }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['a string element', '["add"]', 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
    ['a number element', [1], 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ['malformed JSON', '[{"op":"add",}]', 'invalid character \'}\' looking for beginning of object key string'],
    ['an empty body', '', 'unexpected end of JSON input'],
  ];
  for (const [name, body, message] of badRequest) {
    it(`rejects ${name} with 400`, () => {
      const err = failure(() => applyJsonPatch(base(), body));
      expect(err.code).to.equal(400);
      expect(err.reason).to.equal('BadRequest');
      expect(err.message).to.equal(message);
    });
  }

  it('treats a null body as no operations', () => {
    expect(applyJsonPatch(base(), 'null')).to.deep.equal(base());
  });

  it('accepts the raw body as bytes', () => {
    const body = Buffer.from('[{"op":"replace","path":"/data/k","value":"b"}]');
    expect(applyJsonPatch(base(), body)).to.deep.include({ data: { k: 'b', n: null } });
  });

  it('refuses more than 10,000 operations with 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/data/k', value: 'v' }));
    const err = failure(() => applyJsonPatch(base(), ops));
    expect(err.code).to.equal(413);
    expect(err.reason).to.equal('RequestEntityTooLarge');
    expect(err.message).to.equal('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    expect(applyJsonPatch(base(), ops.slice(0, 10000))).to.deep.equal(base());
  });

  it('reports a root replaced by an array as an undecodable object', () => {
    const err = failure(() => applyJsonPatch(base(), [{ op: 'replace', path: '', value: [1] }]));
    expect(err.code).to.equal(422);
    expect(err.message).to.match(/^ "" is invalid: patch: Invalid value: "\[1\]": couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
    expect(err.details?.causes?.[0]?.field).to.equal('patch');
  });

  it('treats __proto__ as an ordinary key', () => {
    const out = applyJsonPatch(base(), [{ op: 'add', path: '/data/__proto__', value: { polluted: true } }]);
    const data = out.data as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(data, '__proto__')).to.equal(true);
    expect(Object.getPrototypeOf(data)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(failure(() => applyJsonPatch(base(), [{ op: 'remove', path: '/data/toString' }])).code).to.equal(422);
  });

  it('tests a string by its text against Go\'s encoding of the stored one, as the library compares raw JSON', () => {
    const doc = { data: { a: 'A', html: 'a<b&c>', e: 'é', nl: 'x\ny', q: 'say "hi"' }, list: ['A'] };
    const passes = (value: string): boolean => {
      try {
        applyJsonPatch(doc, `[{"op":"test","path":"/data","value":${value}}]`);
        return true;
      } catch (e) {
        expect(failure(() => { throw e; }).code).to.equal(422);
        return false;
      }
    };
    const stored = '"a":"A","e":"é","nl":"x\\ny","q":"say \\"hi\\""';
    expect(passes(`{${stored},"html":"a\\u003cb\\u0026c\\u003e"}`)).to.equal(true);
    // Go's encoder escapes <, & and >: the same string written plainly is other text.
    expect(passes(`{${stored},"html":"a<b&c>"}`)).to.equal(false);
    expect(passes(`{"a":"\\u0041","e":"é","nl":"x\\ny","q":"say \\"hi\\"","html":"a\\u003cb\\u0026c\\u003e"}`)).to.equal(false);
    expect(passes(`{"a":"A","e":"\\u00e9","nl":"x\\ny","q":"say \\"hi\\"","html":"a\\u003cb\\u0026c\\u003e"}`)).to.equal(false);
    expect(passes(`{"a":"A","e":"é","nl":"x\\u000ay","q":"say \\"hi\\"","html":"a\\u003cb\\u0026c\\u003e"}`)).to.equal(false);
    // Keys are decoded into a map: an escaped key is the same key.
    expect(passes(`{"\\u0061":"A","e":"é","nl":"x\\ny","q":"say \\"hi\\"","html":"a\\u003cb\\u0026c\\u003e"}`)).to.equal(true);
    expect(() => applyJsonPatch(doc, '[{"op":"test","path":"/list/0","value":"\\u0041"}]')).to.throw(/rejected our request/);
    expect(applyJsonPatch(doc, '[{"op":"test","path":"/list/0","value":"A"}]')).to.deep.equal(doc);
    // A decoded patch has no text: compared by value.
    expect(applyJsonPatch(doc, [{ op: 'test', path: '/data/html', value: 'a<b&c>' }])).to.deep.equal(doc);
  });
});
