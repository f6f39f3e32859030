// The APIResource entries of one group-version, built from the scheme the way upstream's
// installer lists them: one entry per resource and one per subresource ("roles/status"),
// sorted by name, verbs sorted, subresources without singular name or storage hash.
import { storageSegment } from '../../runtime/scheme.js';
import type { ResourceDef, SubresourceDef } from '../../registry/rest/resource.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { storageVersionHash } from './storage-version-hash.js';
import type { APIResource } from './types.js';

/** A subresource declaration may name the group/version of a kind from another group. */
interface SubresourceWithGroupVersion extends SubresourceDef {
  group?: string;
  version?: string;
}

// Subresource kinds upstream serves from another group; discovery names that group.
const foreignSubresourceKinds: Record<string, { group: string; version: string }> = {
  TokenRequest: { group: 'authentication.k8s.io', version: 'v1' },
  Scale: { group: 'autoscaling', version: 'v1' },
  Eviction: { group: 'policy', version: 'v1' },
};

function byName(a: APIResource, b: APIResource): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The storage version of each persisted resource, keyed by storage segment. Resources of
 * several groups sharing one etcd location (events and events.k8s.io events) are stored
 * in the core group's encoding, so its version is the one hashed for all of them.
 */
function storageVersions(scheme: ResourceScheme): Map<string, ResourceDef> {
  const out = new Map<string, ResourceDef>();
  for (const d of scheme.storedResources()) {
    const key = storageSegment(d);
    if (!out.has(key) || d.group === '') out.set(key, d);
  }
  return out;
}

function subresourceGroupVersion(
  scheme: ResourceScheme, def: ResourceDef, sub: SubresourceWithGroupVersion,
): { group: string; version: string } | undefined {
  if (sub.group !== undefined && sub.version !== undefined) {
    return sub.group === def.group && sub.version === def.version ? undefined : { group: sub.group, version: sub.version };
  }
  if (sub.kind === def.kind || scheme.kind(def.group, def.version, sub.kind)) return undefined;
  return foreignSubresourceKinds[sub.kind];
}

export function resourceEntry(def: ResourceDef, stored: ResourceDef | undefined): APIResource {
  const entry: APIResource = {
    name: def.plural,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: [...def.verbs].sort(),
  };
  if (def.shortNames?.length) entry.shortNames = [...def.shortNames];
  if (def.categories?.length) entry.categories = [...def.categories];
  if (stored && !def.virtual) entry.storageVersionHash = storageVersionHash(stored.group, stored.version, stored.kind);
  return entry;
}

export function subresourceEntry(scheme: ResourceScheme, def: ResourceDef, sub: SubresourceDef): APIResource {
  const gv = subresourceGroupVersion(scheme, def, sub);
  return {
    name: `${def.plural}/${sub.name}`,
    singularName: '',
    namespaced: def.namespaced,
    ...(gv ? { group: gv.group, version: gv.version } : {}),
    kind: sub.kind,
    verbs: [...sub.verbs].sort(),
  };
}

/** All entries of `/api/v1` or `/apis/<group>/<version>`, in upstream's order. */
export function apiResourcesOf(scheme: ResourceScheme, group: string, version: string): APIResource[] {
  const stored = storageVersions(scheme);
  const out: APIResource[] = [];
  for (const def of scheme.resourcesOf(group, version)) {
    out.push(resourceEntry(def, stored.get(storageSegment(def))));
    for (const sub of def.subresources ?? []) out.push(subresourceEntry(scheme, def, sub));
  }
  return out.sort(byName);
}
