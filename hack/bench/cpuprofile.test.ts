import { expect } from 'chai';
import { summarize } from './cpuprofile.js';

// root -> handler (ours) -> encode (npm pkg); root -> (idle). Samples: 3 in encode,
// 1 in handler itself, 4 idle (left out of the shares).
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 4] },
    { id: 2, callFrame: frame('handler', 'file:///repo/dist/pkg/endpoints/handlers/get.js'), children: [3] },
    { id: 3, callFrame: frame('encode', 'file:///repo/node_modules/@grpc/grpc-js/build/src/x.js') },
    { id: 4, callFrame: frame('(idle)', '') },
  ],
  samples: [3, 3, 3, 2, 4, 4, 4, 4],
  timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10],
};

describe('hack/bench/cpuprofile', () => {
  it('shares busy samples out per function, per package or folder, and including callees', () => {
    expect(summarize(profile, 'self', 10)).to.deep.equal([
      'busy 0.00 s',
      ' 75.0%  encode nm/@grpc/grpc-js/build/src/x.js:10',
      ' 25.0%  handler pkg/endpoints/handlers/get.js:10',
    ]);
    expect(summarize(profile, 'group', 10).slice(1)).to.deep.equal([' 75.0%  npm @grpc/grpc-js', ' 25.0%  ours pkg/endpoints/handlers']);
    expect(summarize(profile, 'incl', 10, 'handler').slice(1)).to.deep.equal(['100.0%  handler pkg/endpoints/handlers/get.js:10']);
    expect(summarize(profile, 'callers', 10, 'encode').slice(1)).to.deep.equal([
      ' 75.0%  encode nm/@grpc/grpc-js/build/src/x.js:10 < handler pkg/endpoints/handlers/get.js:10 < (root) :10',
    ]);
  });
});
