import { expect } from 'chai';
import { podAttrs } from '../../testing.js';
import { AlwaysAdmit } from './index.js';

describe('AlwaysAdmit', () => {
  it('handles every operation and lets everything through unchanged', async () => {
    const p = new AlwaysAdmit();
    for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) expect(p.handles(op)).to.equal(true);
    const a = podAttrs({ containers: [{ name: 'c', image: 'x' }] });
    const before = structuredClone(a.object);
    await p.admit();
    await p.validate();
    expect(a.object).to.deep.equal(before);
  });
});
