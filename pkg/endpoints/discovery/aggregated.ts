// Aggregated discovery (apidiscovery.k8s.io/v2beta1): every group, version and resource in
// one document, converted from the per-version resource lists the way upstream's
// installer does (subresources folded under their parent resource).
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { namedGroups } from './documents.js';
import { sortVersions } from '../../apis/apiregistration/priorities.js';
import { apiResourcesOf } from './resources.js';
import type {
  APIGroupDiscovery, APIGroupDiscoveryList, APIResource, APIResourceDiscovery, APIVersionDiscovery,
} from './types.js';

export const aggregatedGroup = 'apidiscovery.k8s.io';
export const aggregatedVersion = 'v2beta1';
export const aggregatedKind = 'APIGroupDiscoveryList';

export function toResourceDiscovery(list: APIResource[]): APIResourceDiscovery[] {
  const out: APIResourceDiscovery[] = [];
  const parents = new Map<string, APIResourceDiscovery>();
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const d: APIResourceDiscovery = {
      resource: r.name,
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
    };
    if (r.shortNames?.length) d.shortNames = r.shortNames;
    if (r.categories?.length) d.categories = r.categories;
    out.push(d);
    parents.set(r.name, d);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parentName = r.name.slice(0, slash);
    let parent = parents.get(parentName);
    if (!parent) {
      // A subresource without a served parent still gets a (kind-less) parent entry.
      parent = {
        resource: parentName, responseKind: { group: '', version: '', kind: '' },
        scope: r.namespaced ? 'Namespaced' : 'Cluster', singularResource: '', verbs: [],
      };
      out.push(parent);
      parents.set(parentName, parent);
    }
    (parent.subresources ??= []).push({
      subresource: r.name.slice(slash + 1),
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      verbs: r.verbs,
    });
  }
  return out;
}

function groupDiscovery(scheme: ResourceScheme, group: string): APIGroupDiscovery {
  const versions: APIVersionDiscovery[] = sortVersions(group, scheme.versionsOf(group)).map((version) => {
    const resources = toResourceDiscovery(apiResourcesOf(scheme, group, version));
    return resources.length > 0
      ? { version, resources, freshness: 'Current' }
      : { version, freshness: 'Current' };
  });
  const metadata = group === '' ? { creationTimestamp: null } : { name: group, creationTimestamp: null };
  return versions.length > 0 ? { metadata, versions } : { metadata };
}

function list(items: APIGroupDiscovery[]): APIGroupDiscoveryList {
  return { kind: aggregatedKind, apiVersion: 'apidiscovery.k8s.io/v2beta1', metadata: {}, items };
}

/** The document served on `/api`: the core group alone. */
export function aggregatedLegacyDiscovery(scheme: ResourceScheme): APIGroupDiscoveryList {
  return list(scheme.versionsOf('').length > 0 ? [groupDiscovery(scheme, '')] : []);
}

/** The document served on `/apis`: every named group, in priority order. */
export function aggregatedDiscovery(scheme: ResourceScheme): APIGroupDiscoveryList {
  return list(namedGroups(scheme).map((g) => groupDiscovery(scheme, g)));
}
