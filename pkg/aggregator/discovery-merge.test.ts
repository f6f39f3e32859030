import { expect } from 'chai';
import type { APIGroupDiscoveryList, APIGroupList } from '../endpoints/discovery/types.js';
import type { APIServiceSpec } from './apiservice.js';
import { mergeAggregated, mergeGroup, mergeGroupList, Priorities } from './discovery-merge.js';

const spec = (group: string, version: string, groupPriorityMinimum: number, versionPriority: number): APIServiceSpec => ({
  group, version, groupPriorityMinimum, versionPriority, insecureSkipTLSVerify: true, service: { namespace: 'ns', name: 's', port: 443 },
});
const gv = (group: string, version: string) => ({ groupVersion: `${group}/${version}`, version });

describe('aggregator discovery merging', () => {
  const local: APIGroupList = {
    kind: 'APIGroupList', apiVersion: 'v1',
    groups: [
      { name: 'apps', versions: [gv('apps', 'v1')], preferredVersion: gv('apps', 'v1') },
      { name: 'batch', versions: [gv('batch', 'v1')], preferredVersion: gv('batch', 'v1') },
    ],
  };

  it('orders remote groups by groupPriorityMinimum and versions by versionPriority', () => {
    const remote = [spec('z.example.com', 'v1beta1', 17900, 5), spec('z.example.com', 'v1', 100, 20), spec('a.example.com', 'v2', 1000, 1)];
    const merged = mergeGroupList(local, remote, new Priorities(remote));
    expect(merged.groups.map((g) => g.name)).to.deep.equal(['z.example.com', 'apps', 'batch', 'a.example.com']);
    expect(merged.groups[0]!.versions.map((v) => v.version)).to.deep.equal(['v1', 'v1beta1']);
    expect(merged.groups[0]!.preferredVersion).to.deep.equal(gv('z.example.com', 'v1'));
  });

  it('breaks priority ties by name and kube-aware version order', () => {
    const remote = [spec('b.example.com', 'v1alpha1', 500, 15), spec('b.example.com', 'v1', 500, 15), spec('a.example.com', 'v1', 500, 15)];
    const merged = mergeGroupList({ ...local, groups: [] }, remote, new Priorities(remote));
    expect(merged.groups.map((g) => g.name)).to.deep.equal(['a.example.com', 'b.example.com']);
    expect(merged.groups[1]!.versions.map((v) => v.version)).to.deep.equal(['v1', 'v1alpha1']);
  });

  it('adds a remote version to a group this server also serves', () => {
    const remote = [spec('apps', 'v2', 17800, 30)];
    const g = mergeGroup('apps', local.groups[0], remote, new Priorities(remote));
    expect(g.versions.map((v) => v.version)).to.deep.equal(['v2', 'v1']);
  });

  it('merges fetched versions into the aggregated document', () => {
    const doc: APIGroupDiscoveryList = {
      kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2beta1', metadata: {},
      items: [{ metadata: { name: 'apps', creationTimestamp: null }, versions: [{ version: 'v1', freshness: 'Current' }] }],
    };
    const s = spec('wardle.example.com', 'v1alpha1', 20000, 15);
    const merged = mergeAggregated(doc, [{ spec: s, discovery: { version: 'v1alpha1', freshness: 'Stale' } }], new Priorities([s]));
    expect(merged.items.map((g) => g.metadata.name)).to.deep.equal(['wardle.example.com', 'apps']);
    expect(merged.items[0]!.versions).to.deep.equal([{ version: 'v1alpha1', freshness: 'Stale' }]);
    expect(doc.items).to.have.length(1);
  });
});
