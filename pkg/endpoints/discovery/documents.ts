// Builders of the unaggregated discovery documents (/api, /apis, /apis/<g>, resource
// lists). Pure functions of the scheme so handlers and tests share them.
import { apiVersionOf } from '../../runtime/scheme.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { sortGroups, sortVersions } from '../../apis/apiregistration/priorities.js';
import { apiResourcesOf } from './resources.js';
import type { APIGroup, APIGroupDocument, APIGroupList, APIResourceList, APIVersions, ServerAddressByClientCIDR } from './types.js';

/** Named groups (not the core group) in discovery order. */
export function namedGroups(scheme: ResourceScheme): string[] {
  return sortGroups(scheme.groups().filter((g) => g !== '' && scheme.versionsOf(g).length > 0));
}

export function apiVersions(scheme: ResourceScheme, serverAddress: string): APIVersions {
  const cidrs: ServerAddressByClientCIDR[] = [{ clientCIDR: '0.0.0.0/0', serverAddress }];
  return { kind: 'APIVersions', versions: sortVersions('', scheme.versionsOf('')), serverAddressByClientCIDRs: cidrs };
}

export function apiGroup(scheme: ResourceScheme, group: string): APIGroup | undefined {
  const versions = sortVersions(group, scheme.versionsOf(group)).map((version) => ({
    groupVersion: apiVersionOf(group, version), version,
  }));
  if (versions.length === 0) return undefined;
  return { name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupDocument(scheme: ResourceScheme, group: string): APIGroupDocument | undefined {
  const g = apiGroup(scheme, group);
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...g };
}

export function apiGroupList(scheme: ResourceScheme): APIGroupList {
  const groups: APIGroup[] = [];
  for (const name of namedGroups(scheme)) {
    const g = apiGroup(scheme, name);
    if (g) groups.push(g);
  }
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiResourceList(scheme: ResourceScheme, group: string, version: string): APIResourceList | undefined {
  if (!scheme.versionsOf(group).includes(version)) return undefined;
  const resources = apiResourcesOf(scheme, group, version);
  const groupVersion = apiVersionOf(group, version);
  return group === ''
    ? { kind: 'APIResourceList', groupVersion, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}
