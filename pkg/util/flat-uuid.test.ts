import { expect } from 'chai';
import { flatRandomUUID } from './flat-uuid.js';

describe('pkg/util/flat-uuid', () => {
  it('gives distinct version 4 UUIDs in their canonical form', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => flatRandomUUID()));
    expect(ids.size).to.equal(1000);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
