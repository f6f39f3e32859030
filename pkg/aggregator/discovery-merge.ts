// Discovery documents with the service-backed group versions added to this server's
// own, ordered as upstream's aggregator orders them: groups by the highest
// groupPriorityMinimum of their APIServices (ties by name), versions by versionPriority
// (ties by kube-aware version order). Groups and versions without an APIService keep
// the built-in priorities.
import type { APIGroup, APIGroupDiscovery, APIGroupDiscoveryList, APIGroupList } from '../endpoints/discovery/index.js';
import { groupPriority, versionPriority } from '../apis/apiregistration/priorities.js';
import { compareKubeAwareVersions } from '../runtime/version-order.js';
import type { APIServiceSpec } from './apiservice.js';
import type { RemoteVersion } from './remote-discovery.js';

export class Priorities {
  private groups = new Map<string, number>();
  private versions = new Map<string, number>();

  constructor(specs: APIServiceSpec[]) {
    for (const s of specs) {
      this.groups.set(s.group, Math.max(this.groups.get(s.group) ?? -Infinity, s.groupPriorityMinimum));
      this.versions.set(`${s.version}.${s.group}`, s.versionPriority);
    }
  }

  group(g: string): number {
    return this.groups.get(g) ?? groupPriority(g);
  }

  version(g: string, v: string): number {
    return this.versions.get(`${v}.${g}`) ?? versionPriority(g, v);
  }

  sortGroups<T>(items: T[], name: (t: T) => string): T[] {
    return [...items].sort((a, b) => {
      const d = this.group(name(b)) - this.group(name(a));
      return d !== 0 ? d : name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
    });
  }

  sortVersions<T>(group: string, items: T[], version: (t: T) => string): T[] {
    return [...items].sort((a, b) => {
      const d = this.version(group, version(b)) - this.version(group, version(a));
      return d !== 0 ? d : compareKubeAwareVersions(version(b), version(a));
    });
  }
}

/** One group of the legacy documents: the local versions (if any) and the remote ones. */
export function mergeGroup(group: string, local: APIGroup | undefined, remote: APIServiceSpec[], p: Priorities): APIGroup {
  const versions = [...(local?.versions ?? [])];
  for (const s of remote) {
    if (s.group === group && !versions.some((v) => v.version === s.version)) versions.push({ groupVersion: `${group}/${s.version}`, version: s.version });
  }
  const sorted = p.sortVersions(group, versions, (v) => v.version);
  return { name: group, versions: sorted, preferredVersion: sorted[0]! };
}

/** /apis (APIGroupList) with every group of a service-backed APIService. */
export function mergeGroupList(local: APIGroupList, remote: APIServiceSpec[], p: Priorities): APIGroupList {
  const localByName = new Map(local.groups.map((g) => [g.name, g]));
  const names = new Set([...localByName.keys(), ...remote.map((s) => s.group).filter((g) => g !== '')]);
  const groups = [...names].map((name) => (remote.some((s) => s.group === name)
    ? mergeGroup(name, localByName.get(name), remote, p)
    : localByName.get(name)!));
  return { ...local, groups: p.sortGroups(groups, (g) => g.name) };
}

/** The aggregated /apis document with each fetched remote version in its group. */
export function mergeAggregated(local: APIGroupDiscoveryList, remote: RemoteVersion[], p: Priorities): APIGroupDiscoveryList {
  const items = local.items.map((g) => ({ ...g, versions: [...(g.versions ?? [])] }));
  for (const r of remote) {
    let g = items.find((i) => (i.metadata.name ?? '') === r.spec.group);
    if (!g) {
      g = { metadata: { name: r.spec.group, creationTimestamp: null }, versions: [] };
      items.push(g);
    }
    if (!g.versions.some((v) => v.version === r.spec.version)) g.versions.push({ ...r.discovery, version: r.spec.version });
  }
  const sorted: APIGroupDiscovery[] = p.sortGroups(items, (g) => g.metadata.name ?? '').map((g) => ({
    ...g, versions: p.sortVersions(g.metadata.name ?? '', g.versions, (v) => v.version),
  }));
  return { ...local, items: sorted };
}
