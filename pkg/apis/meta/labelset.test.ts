import { expect } from 'chai';
import { convertSelectorToLabelsMap, labelsConflict, labelsInWhitelist, mergeLabels } from './labelset.js';

describe('label sets', () => {
  it('parses k=v lists, trimming spaces', () => {
    expect(convertSelectorToLabelsMap('')).to.deep.equal({});
    expect(convertSelectorToLabelsMap('a=b, c = d,e=')).to.deep.equal({ a: 'b', c: 'd', e: '' });
  });

  it('refuses malformed terms with upstream words', () => {
    expect(() => convertSelectorToLabelsMap('a=b=c')).to.throw('invalid selector: [a b c]');
    expect(() => convertSelectorToLabelsMap('a')).to.throw('invalid selector: [a]');
    expect(() => convertSelectorToLabelsMap('a=b c')).to.throw(/^\[a\]: Invalid value: "b c": a valid label must be/);
    expect(() => convertSelectorToLabelsMap('-a=b')).to.throw(/^<nil>: Invalid value: "-a": name part must consist of/);
  });

  it('conflicts, merges and checks whitelists', () => {
    expect(labelsConflict({ a: '1' }, { a: '2' })).to.equal(true);
    expect(labelsConflict({ a: '1' }, { a: '1', b: '2' })).to.equal(false);
    expect(mergeLabels({ a: '1', b: '1' }, { b: '2' })).to.deep.equal({ a: '1', b: '2' });
    expect(labelsInWhitelist({ a: '1' }, {})).to.equal(true);
    expect(labelsInWhitelist({ a: '1' }, { a: '1', b: '2' })).to.equal(true);
    expect(labelsInWhitelist({ a: '2' }, { a: '1' })).to.equal(false);
    expect(labelsInWhitelist({ c: '1' }, { a: '1' })).to.equal(false);
  });
});
