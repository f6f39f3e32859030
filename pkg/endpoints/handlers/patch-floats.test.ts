import { expect } from 'chai';
import { patchResultFloats } from './patch-floats.js';

describe('patchResultFloats: where a patch\'s float literals land in the patched object', () => {
  const current = { spec: { replicas: 1, ports: [{ port: 1 }], paused: false, big: 1234567890123456, minimum: 1.5, tiny: 1e-7 } };

  it('a merge patch: where they sit in the patch', () => {
    expect(patchResultFloats('merge', '{"spec":{"replicas":2.0}}')(current)).to.deep.equal([{ path: ['spec', 'replicas'], text: '2.0' }]);
  });

  it('a JSON patch: under an add or a replace\'s path, an append, a shifted index, a move and a copy', () => {
    const floatsOf = (patch: string) => patchResultFloats('json', patch)(current);
    expect(floatsOf('[{"op":"replace","path":"/spec/replicas","value":2.0}]')).to.deep.equal([{ path: ['spec', 'replicas'], text: '2.0' }]);
    expect(floatsOf('[{"op":"add","path":"/spec/ports/-","value":{"port":8.0}}]')).to.deep.equal([{ path: ['spec', 'ports', 1, 'port'], text: '8.0' }]);
    expect(floatsOf('[{"op":"add","path":"/spec/ports/0","value":{"port":8.0}},{"op":"add","path":"/spec/ports/0","value":{"port":9}}]'))
      .to.deep.equal([{ path: ['spec', 'ports', 1, 'port'], text: '8.0' }]);
    expect(floatsOf('[{"op":"add","path":"/spec/paused","value":5e0},{"op":"move","from":"/spec/paused","path":"/spec/replicas"}]'))
      .to.deep.equal([{ path: ['spec', 'replicas'], text: '5e0' }]);
    expect(floatsOf('[{"op":"add","path":"/spec/x","value":[1.5]},{"op":"copy","from":"/spec/x","path":"/spec/y"}]'))
      .to.deep.equal([{ path: ['spec', 'x', 0], text: '1.5' }, { path: ['spec', 'y', 0], text: '1.5' }]);
  });

  it('a JSON patch: a test\'s value puts nothing, and a removed literal is nowhere', () => {
    const floatsOf = (patch: string) => patchResultFloats('json', patch)(current);
    expect(floatsOf('[{"op":"test","path":"/spec/ports/0/port","value":1}]')).to.deep.equal([]);
    expect(floatsOf('[{"op":"add","path":"/spec/x","value":2.0},{"op":"remove","path":"/spec/x"}]')).to.deep.equal([]);
  });

  it('a JSON patch: a test compares a literal by its text, as upstream compares raw JSON', () => {
    const floatsOf = (patch: string) => patchResultFloats('json', patch)(current);
    // 1.0 is not the stored 1 (written 1), nor 1e0 the 1.0 a replace put.
    expect(() => floatsOf('[{"op":"test","path":"/spec/replicas","value":1.0}]')).to.throw(/rejected our request/);
    expect(() => floatsOf('[{"op":"replace","path":"/spec/replicas","value":1.0},{"op":"test","path":"/spec/replicas","value":1e0}]')).to.throw(/rejected our request/);
    expect(() => floatsOf('[{"op":"test","path":"/spec/ports","value":[{"port":1.0}]}]')).to.throw(/rejected our request/);
    // The same text passes, and the literal stays where the replace put it.
    expect(floatsOf('[{"op":"replace","path":"/spec/replicas","value":2.0},{"op":"test","path":"/spec/replicas","value":2.0}]'))
      .to.deep.equal([{ path: ['spec', 'replicas'], text: '2.0' }]);
    // A stored float (a float64 field, a CRD schema's minimum) is the text Go writes for it.
    expect(floatsOf('[{"op":"test","path":"/spec/minimum","value":1.5}]')).to.deep.equal([]);
    expect(floatsOf('[{"op":"test","path":"/spec/tiny","value":1e-7}]')).to.deep.equal([]);
    expect(floatsOf('[{"op":"test","path":"/spec","value":{"minimum":1.5,"tiny":1e-7,"replicas":1,"ports":[{"port":1}],"paused":false,"big":1234567890123456}}]')).to.deep.equal([]);
    expect(() => floatsOf('[{"op":"test","path":"/spec/minimum","value":1.50}]')).to.throw(/rejected our request/);
    expect(() => floatsOf('[{"op":"test","path":"/spec/tiny","value":0.0000001}]')).to.throw(/rejected our request/);
    // A long integer is written by Go as it is stored: compared as a number.
    expect(floatsOf('[{"op":"test","path":"/spec/big","value":1234567890123456}]')).to.deep.equal([]);
  });
});
