import { expect } from 'chai';
import { heapByFunction } from './heap-profile.js';

// root -> handler (ours, 100 B itself) -> Map (builtin, 300 B); root -> parse (npm, 600 B).
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
const profile = {
  head: {
    callFrame: frame('(root)', ''), selfSize: 0, children: [
      {
        callFrame: frame('handler', 'file:///repo/dist/pkg/endpoints/handlers/get.js'), selfSize: 100,
        children: [{ callFrame: frame('Map', ''), selfSize: 300, children: [] }],
      },
      { callFrame: frame('parse', 'file:///repo/node_modules/yaml/dist/parse.js'), selfSize: 600, children: [] },
    ],
  },
};

describe('hack/bench/heap-profile', () => {
  it('shares the bytes out by allocating function, by stack and by file', () => {
    const self = heapByFunction(profile, 'self');
    expect(self.total).to.equal(1000);
    expect([...self.byFunction].filter(([, b]) => b > 0)).to.deep.equal([
      ['handler dist/pkg/endpoints/handlers/get.js:10', 100], ['Map :10', 300], ['parse node_modules/yaml/dist/parse.js:10', 600],
    ]);
    const incl = heapByFunction(profile, 'incl').byFunction;
    expect(incl.get('handler dist/pkg/endpoints/handlers/get.js:10')).to.equal(400);
    expect(incl.get('(root) :10')).to.equal(1000);
    const file = heapByFunction(profile, 'file').byFunction;
    expect(file.get('(native Map)')).to.equal(300);
    expect(file.get('dist/pkg/endpoints/handlers/get.js')).to.equal(100);
  });
});
