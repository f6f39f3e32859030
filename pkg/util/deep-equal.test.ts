import { expect } from 'chai';
import { deepEqual } from './deep-equal.js';
import { deepCopy } from '../runtime/object.js';

describe('deepEqual', () => {
  it('ignores key order and treats an undefined value as absent', () => {
    expect(deepEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).to.equal(true);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).to.equal(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).to.equal(true);
  });

  it('tells apart a missing key, a changed value, an array from an object, null from {}', () => {
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).to.equal(false);
    expect(deepEqual({ a: 1, b: 2 }, { a: 1 })).to.equal(false);
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).to.equal(false);
    expect(deepEqual({ a: [] }, { a: {} })).to.equal(false);
    expect(deepEqual({ a: null }, { a: {} })).to.equal(false);
    expect(deepEqual([1, 2], [1, 2, 3])).to.equal(false);
  });

  it('with nullIsAbsent, takes a field holding null as absent, at any depth, and nothing else', () => {
    expect(deepEqual({ a: 1, b: null }, { a: 1 })).to.equal(false);
    expect(deepEqual({ a: 1, b: null }, { a: 1 }, true)).to.equal(true);
    expect(deepEqual({ s: { a: 1 } }, { s: { a: 1, b: null } }, true)).to.equal(true);
    expect(deepEqual({ a: null }, { a: {} }, true)).to.equal(false);
    expect(deepEqual({ a: null }, { a: 0 }, true)).to.equal(false);
    expect(deepEqual([null], [], true)).to.equal(false);
  });
});

describe('deepCopy', () => {
  it('copies JSON values all the way down, sharing nothing', () => {
    const src = { metadata: { name: 'a', labels: { x: 'y' } }, list: [{ k: 1 }, 'two', null, true], n: 0, u: undefined };
    const copy = deepCopy(src);
    expect(copy).to.deep.equal(src);
    expect('u' in copy).to.equal(true);
    copy.metadata.labels.x = 'z';
    (copy.list[0] as { k: number }).k = 2;
    expect(src.metadata.labels.x).to.equal('y');
    expect((src.list[0] as { k: number }).k).to.equal(1);
  });

  it('copies what is not plain JSON as structuredClone does', () => {
    const when = new Date(0);
    const copy = deepCopy({ when, bytes: new Uint8Array([1, 2]) });
    expect(copy.when).to.be.instanceOf(Date);
    expect(copy.when).to.not.equal(when);
    expect(copy.when.getTime()).to.equal(0);
    expect([...copy.bytes]).to.deep.equal([1, 2]);
    expect(() => deepCopy({ f: () => 1 })).to.throw();
  });
});
