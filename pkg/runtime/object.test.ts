import { expect } from 'chai';
import { withProperty } from './object.js';

describe('withProperty', () => {
  it('is the spread with one property: same keys, same order, the source untouched', () => {
    const meta = { name: 'a', namespace: 'b', uid: 'u' };
    const added = withProperty(meta, 'resourceVersion', '7');
    expect(JSON.stringify(added)).to.equal(JSON.stringify({ ...meta, resourceVersion: '7' }));
    expect(Object.keys(added)).to.deep.equal(['name', 'namespace', 'uid', 'resourceVersion']);
    const replaced = withProperty({ name: 'a', resourceVersion: '1', uid: 'u' }, 'resourceVersion', '2');
    expect(Object.keys(replaced)).to.deep.equal(['name', 'resourceVersion', 'uid']);
    expect(replaced).to.deep.equal({ name: 'a', resourceVersion: '2', uid: 'u' });
    expect(meta).to.deep.equal({ name: 'a', namespace: 'b', uid: 'u' });
  });

  it('keeps an own __proto__ key a plain property, as the spread does', () => {
    const parsed = JSON.parse('{"name":"x","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const out = withProperty(parsed, 'resourceVersion', '1') as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    expect(out.polluted).to.equal(undefined);
    expect(JSON.stringify(out)).to.equal('{"name":"x","__proto__":{"polluted":true},"resourceVersion":"1"}');
  });
});
