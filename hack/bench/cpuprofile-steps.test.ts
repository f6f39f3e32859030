import { expect } from 'chai';
import { stepsOf, stepsTable } from './cpuprofile-steps.js';

// root -> update handler -> store update -> managed fields -> Map builtin (no url)
//                                       -> storage -> grpc-js
// and root -> (garbage collector), root -> (idle). Deltas are uneven on purpose: the
// steps count samples, so the 900 us one weighs what a 1 us one does.
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
const dist = 'file:///repo/dist/pkg';
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 7, 8] },
    { id: 2, callFrame: frame('updateHandler', `${dist}/endpoints/handlers/update.js`), children: [3] },
    { id: 3, callFrame: frame('updateObject', `${dist}/registry/generic/update.js`), children: [4, 6] },
    { id: 4, callFrame: frame('updateComputed', `${dist}/registry/generic/managedfields/manager.js`), children: [5] },
    { id: 5, callFrame: frame('Map', '') },
    { id: 6, callFrame: frame('makeUnaryRequest', 'file:///repo/node_modules/@grpc/grpc-js/build/src/client.js') },
    { id: 7, callFrame: frame('(garbage collector)', ''), children: [9] },
    { id: 8, callFrame: frame('(idle)', '') },
    // A native frame named like an Object.prototype method is no step of its own.
    { id: 9, callFrame: frame('toString', '') },
  ],
  samples: [5, 5, 4, 6, 3, 2, 7, 8, 8, 9],
  timeDeltas: [1, 900, 1, 1, 1, 1, 1, 1, 1, 1],
  startTime: 0,
};

describe('hack/bench/cpuprofile-steps', () => {
  it('counts each busy sample once, for the innermost frame that names a step', () => {
    const { busy, dropped, steps } = stepsOf(profile);
    expect([busy, dropped]).to.deep.equal([8, 0]);
    expect(Object.fromEntries(steps)).to.deep.equal({
      'managed fields': 3,
      'etcd client (etcd3, grpc-js, its HTTP/2)': 1,
      'store: create/update steps, copies': 1,
      'handler, Koa, respond': 1,
      'garbage collection (main thread)': 2,
    });
  });

  it('keeps the window and scales shares to microseconds per operation', () => {
    // Samples end at 1, 901, 902, ...: the window 900-903 keeps the second to the fourth.
    expect(stepsTable(profile, [900, 903], 300, 'managed fields')).to.deep.equal([
      'busy samples 3 (0 left out: runs of one leaf over max-run)',
      '  200.0 us  66.7%  managed fields',
      '  100.0 us  33.3%  etcd client (etcd3, grpc-js, its HTTP/2)',
      'managed fields, by leaf function:',
      '    100.0 us  33.3%  Map :1',
      '    100.0 us  33.3%  updateComputed pkg/registry/generic/managedfields/manager.js:1',
    ]);
  });

  it('counts only the first max-run samples of a run on one leaf (a stall, not work)', () => {
    const { busy, dropped, steps } = stepsOf(profile, undefined, undefined, 1);
    // The second Map sample repeats the first (node 5 twice in a row), as do the two idles.
    expect([busy, dropped]).to.deep.equal([7, 1]);
    expect(steps.get('managed fields')).to.equal(2);
  });
});
