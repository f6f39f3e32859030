import { expect } from 'chai';
import {
  defaultFieldLabels, escapeFieldValue, fieldLabels, objectMetaFields, parseFieldSelector, validateFieldSelector,
} from './fields.js';
import { failure } from '../../../test/harness/failure.js';


describe('fields: parseFieldSelector', () => {
  const canonical: Array<[string, string]> = [
    ['', ''],
    ['metadata.name=foo', 'metadata.name=foo'],
    ['metadata.name==foo', 'metadata.name=foo'],
    ['status.phase!=Running,metadata.name=foo', 'metadata.name=foo,status.phase!=Running'],
    ['a=,b=c', 'a=,b=c'],
    [',a=b,', 'a=b'],
    ['a=x\\,y\\=z\\\\', 'a=x\\,y\\=z\\\\'],
    ['a=b\\=c', 'a=b\\=c'],
  ];
  for (const [input, want] of canonical) {
    it(`parses ${JSON.stringify(input)} as ${JSON.stringify(want)}`, () => {
      expect(parseFieldSelector(input).toString()).to.equal(want);
    });
  }

  it('unescapes values and keeps escaped commas inside one term', () => {
    const sel = parseFieldSelector('spec.x=a\\,b,spec.y=c\\=d\\\\');
    expect(sel.requirements()).to.deep.equal([
      { field: 'spec.x', operator: '=', value: 'a,b' },
      { field: 'spec.y', operator: '=', value: 'c=d\\' },
    ]);
  });

  const bad: Array<[string, string]> = [
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of bad) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      const err = failure(() => parseFieldSelector(input));
      expect(err.code).to.equal(400);
      expect(err.reason).to.equal('BadRequest');
      expect(err.message).to.equal(message);
    });
  }

  const matching: Array<[string, Record<string, string>, boolean]> = [
    ['', {}, true],
    ['metadata.name=foo', { 'metadata.name': 'foo' }, true],
    ['metadata.name=foo', { 'metadata.name': 'bar' }, false],
    ['metadata.name!=foo', { 'metadata.name': 'bar' }, true],
    ['spec.nodeName=', {}, true],
    ['spec.nodeName!=', {}, false],
    ['spec.nodeName!=', { 'spec.nodeName': 'n1' }, true],
    ['a=1,b=2', { a: '1', b: '2' }, true],
    ['a=1,b=2', { a: '1', b: '3' }, false],
    ['a=x\\,y', { a: 'x,y' }, true],
    ['constructor=', {}, true],
  ];
  for (const [sel, fields, want] of matching) {
    it(`${JSON.stringify(sel)} ${want ? 'matches' : 'does not match'} ${JSON.stringify(fields)}`, () => {
      expect(parseFieldSelector(sel).matches(fields)).to.equal(want);
    });
  }

  it('exposes exact matches and emptiness', () => {
    const sel = parseFieldSelector('metadata.name=foo,metadata.namespace!=bar');
    expect(sel.requiresExactMatch('metadata.name')).to.equal('foo');
    expect(sel.requiresExactMatch('metadata.namespace')).to.equal(undefined);
    expect(sel.empty()).to.equal(false);
    expect(parseFieldSelector('').empty()).to.equal(true);
  });

  it('escapes values', () => {
    expect(escapeFieldValue('a\\b,c=d')).to.equal('a\\\\b\\,c\\=d');
  });
});

describe('fields: validateFieldSelector', () => {
  it('accepts the labels of the conversion and returns the same selector', () => {
    const sel = parseFieldSelector('metadata.name=a,spec.nodeName=n');
    expect(validateFieldSelector(sel, fieldLabels(['metadata.name', 'spec.nodeName']))).to.equal(sel);
  });

  it("rejects other labels with the conversion's wording", () => {
    const err = failure(() => validateFieldSelector(parseFieldSelector('spec.foo=x'), fieldLabels(['metadata.name'])));
    expect(err.code).to.equal(400);
    expect(err.reason).to.equal('BadRequest');
    expect(err.message).to.equal('field label not supported: spec.foo');
    const job = fieldLabels(['metadata.name'], { reject: (l) => `field label ${JSON.stringify(l)} not supported for batchv1.Job` });
    expect(failure(() => validateFieldSelector(parseFieldSelector('status.x=1'), job)).message)
      .to.equal('field label "status.x" not supported for batchv1.Job');
  });

  it("the default conversion: name and namespace, anything else in its wording", () => {
    const sel = parseFieldSelector('metadata.namespace=,metadata.name=a');
    expect(validateFieldSelector(sel)).to.equal(sel);
    const err = failure(() => validateFieldSelector(parseFieldSelector('data.x=1'), defaultFieldLabels));
    expect(err.message).to.equal('"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('matches renamed labels against the field they name', () => {
    const sel = validateFieldSelector(parseFieldSelector('spec.host=n1'), fieldLabels(['spec.nodeName'], { renamed: { 'spec.host': 'spec.nodeName' } }));
    expect(sel.toString()).to.equal('spec.nodeName=n1');
    expect(sel.matches({ 'spec.nodeName': 'n1' })).to.equal(true);
  });
});

describe('fields: objectMetaFields', () => {
  it('gives name and namespace for namespaced kinds, name only otherwise', () => {
    const obj = { metadata: { name: 'a', namespace: 'ns' } };
    expect(objectMetaFields(obj, true)).to.deep.equal({ 'metadata.name': 'a', 'metadata.namespace': 'ns' });
    expect(objectMetaFields(obj, false)).to.deep.equal({ 'metadata.name': 'a' });
    expect(objectMetaFields({}, true)).to.deep.equal({ 'metadata.name': '', 'metadata.namespace': '' });
  });

  it('lets a cluster-scoped object match only an empty namespace', () => {
    const fields = objectMetaFields({ metadata: { name: 'n' } }, false);
    expect(parseFieldSelector('metadata.namespace=').matches(fields)).to.equal(true);
    expect(parseFieldSelector('metadata.namespace=ns').matches(fields)).to.equal(false);
  });
});
