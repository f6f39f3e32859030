import { expect } from 'chai';
import { JSONPathError, parseJSONPath } from './index.js';

const obj = {
  spec: { replicas: 3, 'a.b': 'dotted', items: [{ name: 'x', n: 1 }, { name: 'y', n: 2 }, { name: 'z', n: 3 }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Synced', status: 'False' }] },
};

describe('jsonpath (printer-column subset)', () => {
  const cases: Array<[string, unknown[]]> = [
    ['.spec.replicas', [3]],
    ['{.spec.replicas}', [3]],
    ["$.spec['a.b']", ['dotted']],
    ['.spec.items[1].name', ['y']],
    ['.spec.items[-1].name', ['z']],
    ['.spec.items[0:2].name', ['x', 'y']],
    ['.spec.items[*].name', ['x', 'y', 'z']],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    ['.spec.items[?(@.n>1)].name', ['y', 'z']],
    ['..name', ['x', 'y', 'z']],
    ['.spec.missing', []],
    ['.spec.replicas.deeper', []],
  ];
  for (const [path, want] of cases) {
    it(`${path} finds ${JSON.stringify(want)}`, () => {
      expect(parseJSONPath(path).find(obj)).to.deep.equal(want);
    });
  }

  it('refuses what it cannot parse', () => {
    expect(() => parseJSONPath('.spec[')).to.throw(JSONPathError);
    expect(() => parseJSONPath('.spec[?(foo)]')).to.throw(JSONPathError);
  });
});
