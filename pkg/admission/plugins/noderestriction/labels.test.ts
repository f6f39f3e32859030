import { expect } from 'chai';
import { forbiddenLabels, modifiedLabels } from './labels.js';

describe('NodeRestriction labels', () => {
  it('finds added, removed and changed keys', () => {
    expect(modifiedLabels({ a: '1', b: '2', c: '3' }, { a: '1', b: 'x', d: '4' }).sort()).to.deep.equal(['b', 'c', 'd']);
    expect(modifiedLabels(undefined, undefined)).to.deep.equal([]);
  });

  it('forbids node-restriction labels and unknown kubernetes.io / k8s.io ones, sorted', () => {
    expect(forbiddenLabels([
      'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'beta.kubernetes.io/arch', 'kubelet.kubernetes.io/x',
      'sub.node.kubernetes.io/y', 'example.com/free', 'plain',
      'node-restriction.kubernetes.io/a', 'x.node-restriction.kubernetes.io/b', 'node-role.kubernetes.io/master', 'k8s.io/z', 'foo.k8s.io/w',
    ])).to.deep.equal(['foo.k8s.io/w', 'k8s.io/z', 'node-restriction.kubernetes.io/a', 'node-role.kubernetes.io/master', 'x.node-restriction.kubernetes.io/b']);
  });
});
