import { expect } from 'chai';
import { findBlocks } from './cpuprofile-blocks.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });
// root -> onData (ours) -> decode (npm); root -> (garbage collector); root -> (idle);
// root -> onTimer (ours).
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4, 5, 6] },
    { id: 2, callFrame: frame('onData', 'file:///r/dist/pkg/a.js'), children: [3] },
    { id: 3, callFrame: frame('decode', 'file:///r/node_modules/p/x.js') },
    { id: 4, callFrame: frame('(garbage collector)') },
    { id: 5, callFrame: frame('(idle)') },
    { id: 6, callFrame: frame('onTimer', 'file:///r/dist/pkg/b.js') },
  ],
  // A 100 ms busy stretch, idle, then 300 ms: decode, GC, decode, onData, onTimer (60 ms each), idle.
  samples: [2, 2, 5, 3, 4, 3, 2, 6, 5],
  timeDeltas: [0, 50_000, 50_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000],
};

describe('hack/bench/cpuprofile-blocks', () => {
  it('finds the stretches without an idle sample at least min-ms long and what filled them', () => {
    const blocks = findBlocks(profile, 200);
    expect(blocks).to.have.length(1);
    expect(blocks[0]).to.deep.equal({
      startMs: 160,
      ms: 300,
      samples: 5,
      self: [['decode nm/p/x.js:1', 2], ['(garbage collector) :1', 1], ['onData pkg/a.js:1', 1], ['onTimer pkg/b.js:1', 1]],
      incl: [['onData pkg/a.js:1', 3], ['decode nm/p/x.js:1', 2], ['onTimer pkg/b.js:1', 1]],
      // GC inside the onData call does not break its run; onTimer is another call.
      longestCall: { samples: 4, frames: ['onData pkg/a.js:1'] },
    });
    expect(findBlocks(profile, 90)).to.have.length(2);
    expect(findBlocks(profile, 90, 6, 3)).to.have.length(1);
  });
});
