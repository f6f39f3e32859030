// The scheme: which kinds and resources exist, in which groups and versions, and how
// they are named (plural, singular, short names, categories, scope). It knows nothing
// about serving them: what a resource's storage and handlers do is declared one floor up,
// in the registry (registry/rest/resource.ts), whose declarations extend TypeDef.

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const allVerbs: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** A resource as the scheme knows it: its names, its group and version, its scope. */
export interface TypeDef {
  group: string;
  version: string;
  kind: string;
  /** Plural lower-case resource name used in URLs. */
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  /** The list kind when it is not `<kind>List` (CRDs may name their own). */
  listKind?: string;
  /**
   * Storage key segment when upstream's differs from the plural (`minions` for nodes,
   * `services/specs`, `controllers`, `ingress`); see storageSegment.
   */
  storageResource?: string;
}

export interface GroupVersionResource { group: string; version: string; resource: string }
export interface GroupVersionKind { group: string; version: string; kind: string }

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export class Scheme<D extends TypeDef = TypeDef> {
  private byResource = new Map<string, D>();
  private byKind = new Map<string, D>();
  /** Groups in registration order, each with its versions in preference order. */
  private groupVersions = new Map<string, string[]>();

  register(def: D): void {
    const rkey = `${def.group}/${def.version}/${def.plural}`;
    if (this.byResource.has(rkey)) throw new Error(`duplicate resource ${rkey}`);
    this.add(rkey, def);
  }

  /**
   * Serves a resource that comes and goes while the server runs (custom resources):
   * replaces the declaration of the same group/version/plural, keeping its place.
   */
  replace(def: D): void {
    this.add(`${def.group}/${def.version}/${def.plural}`, def);
  }

  /** Stops serving a resource registered with replace; its group goes with its last version. */
  unregister(group: string, version: string, plural: string): void {
    const rkey = `${group}/${version}/${plural}`;
    const def = this.byResource.get(rkey);
    if (!def) return;
    this.byResource.delete(rkey);
    const kindKey = `${group}/${version}/${def.kind}`;
    if (this.byKind.get(kindKey) === def) this.byKind.delete(kindKey);
    if (this.resourcesOf(group, version).length > 0) return;
    const versions = (this.groupVersions.get(group) ?? []).filter((v) => v !== version);
    if (versions.length > 0) this.groupVersions.set(group, versions);
    else this.groupVersions.delete(group);
  }

  private add(rkey: string, def: D): void {
    this.byResource.set(rkey, def);
    this.byKind.set(`${def.group}/${def.version}/${def.kind}`, def);
    const versions = this.groupVersions.get(def.group) ?? [];
    if (!versions.includes(def.version)) versions.push(def.version);
    this.groupVersions.set(def.group, versions);
  }

  resource(group: string, version: string, plural: string): D | undefined {
    return this.byResource.get(`${group}/${version}/${plural}`);
  }

  kind(group: string, version: string, kind: string): D | undefined {
    return this.byKind.get(`${group}/${version}/${kind}`);
  }

  /** Finds a resource by plural in any served version of a group (preferred first). */
  resourceInGroup(group: string, plural: string): D | undefined {
    for (const v of this.versionsOf(group)) {
      const def = this.resource(group, v, plural);
      if (def) return def;
    }
    return undefined;
  }

  groups(): string[] {
    return [...this.groupVersions.keys()];
  }

  versionsOf(group: string): string[] {
    return this.groupVersions.get(group) ?? [];
  }

  resources(): D[] {
    return [...this.byResource.values()];
  }

  /**
   * Replaces the declaration of a registered resource by `f` of it, under both its
   * resource and its kind (the registry binds what a declaration needs from the running
   * server this way; the shared declaration itself stays untouched).
   */
  protected rebind(group: string, version: string, plural: string, f: (def: D) => D): void {
    const key = `${group}/${version}/${plural}`;
    const def = this.byResource.get(key);
    if (!def) throw new Error(`resource ${key} is not registered`);
    const bound = f(def);
    this.byResource.set(key, bound);
    const kindKey = `${group}/${version}/${def.kind}`;
    if (this.byKind.get(kindKey) === def) this.byKind.set(kindKey, bound);
  }

  resourcesOf(group: string, version: string): D[] {
    return this.resources().filter((d) => d.group === group && d.version === version);
  }
}

/**
 * Groups whose objects upstream keys as `<group>/<plural>`: the extension servers'
 * (apiextensions-apiserver, kube-aggregator) and custom resources. Every built-in group
 * of kube-apiserver keys by the resource alone (`/registry/clusterroles/<name>`).
 */
const groupQualifiedStorage = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

/** The etcd key segment of a resource, as upstream lays out its keys. */
export function storageSegment(def: TypeDef): string {
  if (def.storageResource) return def.storageResource;
  return groupQualifiedStorage.has(def.group) ? `${def.group}/${def.plural}` : def.plural;
}
