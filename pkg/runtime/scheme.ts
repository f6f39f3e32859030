// The scheme: one declaration per served resource. Routing, discovery, OpenAPI, storage
// keys, request info, authorization attributes and admission matching all read it.
import type { Strategy } from '../registry/generic/strategy.js';
import type { TableConvertor } from './table.js';
import type { KubeObject } from './object.js';
import type { UserInfo } from '../authentication/user.js';
import type { Admission } from '../admission/interfaces.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { WriteHooks } from '../registry/generic/hooks.js';
import type { FieldLabelConversion } from '../apis/meta/fields.js';
import type { KubeletClient, TransportConfig } from '../kubelet/client.js';
import type { GroupResource } from './errors.js';
import type { Storage } from '../storage/interfaces.js';
import type { PatchSchema } from '../apis/meta/patch-schema.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const allVerbs: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface SubresourceDef {
  /** e.g. "status", "finalize", "token". */
  name: string;
  /** The kind the subresource accepts and returns (same as the parent's for status). */
  kind: string;
  /** Group and version of `kind` when it differs from the parent's (serviceaccounts/token: authentication.k8s.io/v1). */
  group?: string;
  version?: string;
  verbs: Verb[];
  /** For subresources that are operations (serviceaccounts/token): answers a POST. */
  create?: VirtualCreate;
  /** Other versions of `group` whose `kind` bodies an operation subresource also accepts (same fields). */
  alternateVersions?: string[];
  /** A scale subresource (autoscaling/v1 Scale) over the parent's replica fields. */
  scale?: ScaleDef;
  /** A connect subresource (pods/log, pods/exec, nodes/proxy): where to send the request. */
  connect?: ConnectDef;
}

/** A connect subresource: the HTTP methods it takes and how it finds its backend. */
export interface ConnectDef {
  methods: string[];
  target: (c: ConnectContext) => Promise<ConnectTarget>;
  /**
   * The connect options object (PodExecOptions...) admission sees with operation CONNECT;
   * absent for pods/log, which upstream serves as a read rather than a connect.
   */
  options?: (c: ConnectContext) => Record<string, unknown>;
}

/** What a connect subresource's request is about. */
export interface ConnectContext {
  namespace: string;
  /** The URL's name, which proxy subresources may extend to `scheme:name:port`. */
  name: string;
  /** Proxy subresources: the path after the subresource, as upstream's ProxyOptions.Path. */
  path: string;
  method: string;
  query: URLSearchParams;
  stores: (group: string, plural: string) => GenericStore | undefined;
  /** Reads a stored object by key under the etcd prefix, for kinds that may not be served. */
  readStored: (key: string) => Promise<KubeObject>;
  kubelet: KubeletClient;
}

/**
 * Where the request goes: `stream` answers a GET with the backend's body (pods/log; no
 * url when there is nothing to read yet), `proxy` forwards the request as it is
 * (and its upgrade to a stream protocol; `upgradeRequired` refuses anything else;
 * `rootRedirect` sends a GET of the bare proxy path to the same path with a slash).
 */
export type ConnectTarget =
  | { kind: 'stream'; url?: URL; transport?: TransportConfig; contentType: string; resource: GroupResource; name: string }
  | { kind: 'proxy'; url: URL; transport: TransportConfig; upgradeRequired: boolean; rootRedirect?: boolean };

/**
 * Where a kind keeps what its autoscaling/v1 Scale shows (upstream: the scale REST of
 * each workload; for custom resources, the CRD's scale subresource paths).
 */
export interface ScaleDef {
  /** Path of the desired replicas, e.g. ['spec', 'replicas']. */
  specReplicasPath: string[];
  /** Path of the observed replicas, e.g. ['status', 'replicas']. */
  statusReplicasPath: string[];
  /**
   * Path of the selector: a metav1.LabelSelector, a map (ReplicationController), or a
   * selector string (custom resources' labelSelectorPath); none when the kind has none.
   */
  selectorPath?: string[];
}

/** Who and where, for operations that are not stored objects (reviews, token requests). */
export interface VirtualContext {
  user: UserInfo;
  namespace: string;
  /** Parent object's name, for subresources. */
  name: string;
  dryRun: boolean;
  /** The request's admission chain, for operations that write stored objects (pods/binding). */
  admission?: Admission;
  /** Stores of served resources (preferred version), for operations that read or write them. */
  stores?: (group: string, plural: string) => GenericStore | undefined;
}

/** Takes the decoded request object, returns the response object (usually with status filled). */
export type VirtualCreate = (obj: KubeObject, ctx: VirtualContext) => Promise<KubeObject>;

export interface VirtualReadContext {
  user: UserInfo;
  query: URLSearchParams;
}

/** Objects computed on each read rather than stored (componentstatuses): get and list only. */
export interface VirtualRead {
  /** Throws a NotFound StatusError for an unknown name. `ctx`: who asks, and the query (reads that depend on them). */
  get(name: string, ctx?: VirtualReadContext): Promise<KubeObject>;
  list(): Promise<KubeObject[]>;
}

export interface ResourceDef {
  group: string;
  version: string;
  kind: string;
  /** Plural lower-case resource name used in URLs. */
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  verbs: Verb[];
  subresources?: SubresourceDef[];
  strategy: Strategy;
  table?: TableConvertor;
  /**
   * Storage key segment when upstream's differs from the plural (`minions` for nodes,
   * `services/specs`, `controllers`, `ingress`); see storageSegment.
   */
  storageResource?: string;
  /**
   * The values this kind's field selectors match beyond metadata.name and
   * metadata.namespace (upstream's GetAttrs / ToSelectableFields).
   */
  selectableFields?: (obj: Record<string, unknown>) => Record<string, string>;
  /**
   * Selectable fields the watch cache indexes, so a list or watch selecting one value
   * (a kubelet's spec.nodeName=<node>) is not matched against every object: upstream's
   * Indexers and TriggerFunc. metadata.name is indexed for every kind.
   */
  indexFields?: string[];
  /**
   * The selector labels accepted and the words for others (upstream's field label
   * conversion); absent: metadata.name and metadata.namespace only (defaultFieldLabels).
   */
  fieldLabels?: FieldLabelConversion;
  /** Objects of this kind are never persisted (reviews): only create is served, by this. */
  virtual?: VirtualCreate;
  /** Objects of this kind are never persisted but computed per read; bound with bindRead. */
  read?: VirtualRead;
  /** Sent as a Warning header on every request for the resource (upstream: deprecated API versions). */
  deprecationWarning?: string;
  /** The release that no longer serves this deprecated version ("1.29"), for metrics and audit. */
  removedRelease?: string;
  /** DELETE answers with the deleted object rather than a Success Status (upstream: ReturnDeletedObject). */
  returnDeletedObject?: boolean;
  /**
   * Conversion to and from the stored form, for a kind served in a second group or
   * version over the same storage (events.k8s.io/v1 Event over core v1 Event).
   */
  conversion?: { toStorage(obj: KubeObject): KubeObject; fromStorage(obj: KubeObject): KubeObject };
  /** Work beside the storage write (service IP and port allocation); bound by the server. */
  hooks?: WriteHooks;
  /** The list kind when it is not `<kind>List` (CRDs may name their own). */
  listKind?: string;
  /**
   * The resource's own view of the shared storage (custom resources convert between
   * their versions there, asynchronously, as upstream's storage codec does).
   */
  wrapStorage?: (storage: Storage) => Storage;
  /** Served from a CustomResourceDefinition: JSON only, its schema published as written. */
  customResource?: {
    openAPISchema?: Record<string, unknown>;
    /** The schema's list and map types, for server-side apply. */
    patchSchema?: PatchSchema;
    /** Unknown fields are what the schema prunes (reported per fieldValidation, then dropped). */
    pruning?: { unknownFields(obj: unknown): string[]; prune(obj: unknown): void };
  };
}

export interface GroupVersionResource { group: string; version: string; resource: string }
export interface GroupVersionKind { group: string; version: string; kind: string }

/** The subresource `name` of `def`, if the resource serves one by that name. */
export function subresourceOf(def: ResourceDef, name: string): SubresourceDef | undefined {
  return def.subresources?.find((s) => s.name === name);
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export class Scheme {
  private byResource = new Map<string, ResourceDef>();
  private byKind = new Map<string, ResourceDef>();
  /** Groups in registration order, each with its versions in preference order. */
  private groupVersions = new Map<string, string[]>();

  register(def: ResourceDef): void {
    const rkey = `${def.group}/${def.version}/${def.plural}`;
    if (this.byResource.has(rkey)) throw new Error(`duplicate resource ${rkey}`);
    this.add(rkey, def);
  }

  /**
   * Serves a resource that comes and goes while the server runs (custom resources):
   * replaces the declaration of the same group/version/plural, keeping its place.
   */
  replace(def: ResourceDef): void {
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

  private add(rkey: string, def: ResourceDef): void {
    this.byResource.set(rkey, def);
    this.byKind.set(`${def.group}/${def.version}/${def.kind}`, def);
    const versions = this.groupVersions.get(def.group) ?? [];
    if (!versions.includes(def.version)) versions.push(def.version);
    this.groupVersions.set(def.group, versions);
  }

  resource(group: string, version: string, plural: string): ResourceDef | undefined {
    return this.byResource.get(`${group}/${version}/${plural}`);
  }

  kind(group: string, version: string, kind: string): ResourceDef | undefined {
    return this.byKind.get(`${group}/${version}/${kind}`);
  }

  /** Finds a resource by plural in any served version of a group (preferred first). */
  resourceInGroup(group: string, plural: string): ResourceDef | undefined {
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

  resources(): ResourceDef[] {
    return [...this.byResource.values()];
  }

  /**
   * Gives a declared operation (a virtual resource's create, or an operation
   * subresource's) its implementation once the server state it needs exists
   * (authenticators, signing keys). Declarations stay shared constants: this Scheme
   * keeps its own bound copy.
   */
  bindOperation(group: string, version: string, plural: string, subresource: string, create: VirtualCreate): void {
    const key = `${group}/${version}/${plural}`;
    const def = this.byResource.get(key);
    if (!def) throw new Error(`bindOperation: resource ${key} is not registered`);
    let bound: ResourceDef;
    if (subresource) {
      if (!subresourceOf(def, subresource)) throw new Error(`bindOperation: ${key} has no subresource ${subresource}`);
      bound = { ...def, subresources: (def.subresources ?? []).map((s) => (s.name === subresource ? { ...s, create } : s)) };
    } else {
      if (!def.virtual) throw new Error(`bindOperation: ${key} is not a virtual resource`);
      bound = { ...def, virtual: create };
    }
    this.byResource.set(key, bound);
    const kindKey = `${group}/${version}/${def.kind}`;
    if (this.byKind.get(kindKey) === def) this.byKind.set(kindKey, bound);
  }

  /** Gives a computed resource its reads once the server state they need exists. */
  bindRead(group: string, version: string, plural: string, read: VirtualRead): void {
    const key = `${group}/${version}/${plural}`;
    const def = this.byResource.get(key);
    if (!def?.read) throw new Error(`bindRead: ${key} is not a computed resource`);
    const bound = { ...def, read };
    this.byResource.set(key, bound);
    const kindKey = `${group}/${version}/${def.kind}`;
    if (this.byKind.get(kindKey) === def) this.byKind.set(kindKey, bound);
  }

  /**
   * Gives a declared resource what it needs from the running server (a strategy built
   * from flags, write hooks over etcd). As bindOperation, the shared declaration stays
   * untouched: this Scheme keeps its own bound copy.
   */
  bindResource(group: string, version: string, plural: string, patch: Pick<Partial<ResourceDef>, 'strategy' | 'hooks'>): void {
    const key = `${group}/${version}/${plural}`;
    const def = this.byResource.get(key);
    if (!def) throw new Error(`bindResource: resource ${key} is not registered`);
    const bound = { ...def, ...patch };
    this.byResource.set(key, bound);
    const kindKey = `${group}/${version}/${def.kind}`;
    if (this.byKind.get(kindKey) === def) this.byKind.set(kindKey, bound);
  }

  resourcesOf(group: string, version: string): ResourceDef[] {
    return this.resources().filter((d) => d.group === group && d.version === version);
  }

  /** Persisted resources, one per storage location (the first registered version serves it). */
  storedResources(): ResourceDef[] {
    const seen = new Set<string>();
    const out: ResourceDef[] = [];
    for (const d of this.resources()) {
      const k = storageSegment(d);
      if (d.virtual || d.read || seen.has(k)) continue;
      seen.add(k);
      out.push(d);
    }
    return out;
  }
}

/**
 * Groups whose objects upstream keys as `<group>/<plural>`: the extension servers'
 * (apiextensions-apiserver, kube-aggregator) and custom resources. Every built-in group
 * of kube-apiserver keys by the resource alone (`/registry/clusterroles/<name>`).
 */
const groupQualifiedStorage = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

/** The etcd key segment of a resource, as upstream lays out its keys. */
export function storageSegment(def: ResourceDef): string {
  if (def.storageResource) return def.storageResource;
  return groupQualifiedStorage.has(def.group) ? `${def.group}/${def.plural}` : def.plural;
}
