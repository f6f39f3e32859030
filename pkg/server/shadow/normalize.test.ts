import { expect } from 'chai';
import { firstDifference, normalizeAnswer } from './normalize.js';

describe('shadow mode: normalizing answers before comparing', () => {
  const cm = (name: string, time: string, rv = '5') => ({
    metadata: { name, namespace: 'ns', resourceVersion: rv, managedFields: [{ manager: 'kubectl', operation: 'Update', time }] }, data: { k: 'v' },
  });

  it('ignores managedFields times, a list\'s revision and continue token, and item order', () => {
    const ours = { kind: 'ConfigMapList', metadata: { resourceVersion: '10', continue: 'a' }, items: [cm('a', '2024-01-01T00:00:00Z'), cm('b', 't')] };
    const theirs = { kind: 'ConfigMapList', metadata: { resourceVersion: '11' }, items: [cm('b', 'u'), cm('a', '2024-01-01T00:00:01Z')] };
    expect(firstDifference(normalizeAnswer(ours), normalizeAnswer(theirs))).to.equal(undefined);
  });

  it('ignores each server\'s own address in discovery', () => {
    const api = (addr: string) => ({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: addr }] });
    expect(firstDifference(normalizeAnswer(api('127.0.0.1:1')), normalizeAnswer(api('127.0.0.1:2')))).to.equal(undefined);
    const group = (addr: string) => ({ kind: 'APIGroupList', groups: [{ name: 'apps', serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: addr }] }] });
    expect(firstDifference(normalizeAnswer(group('a')), normalizeAnswer(group('b')))).to.equal(undefined);
  });

  it('keeps what must match: an item\'s resourceVersion, managers, data', () => {
    expect(firstDifference(normalizeAnswer(cm('a', 't', '5')), normalizeAnswer(cm('a', 't', '6')))).to.equal('/metadata/resourceVersion');
    const other = { ...cm('a', 't'), data: { k: 'w' } };
    expect(firstDifference(normalizeAnswer(cm('a', 't')), normalizeAnswer(other))).to.equal('/data/k');
    const labelled = { ...cm('a', 't'), metadata: { ...cm('a', 't').metadata, labels: { x: 'y' } } };
    expect(firstDifference(normalizeAnswer(cm('a', 't')), normalizeAnswer(labelled))).to.equal('/metadata/labels');
  });
});
