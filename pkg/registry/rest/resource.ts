// What serving a resource takes (upstream's rest package is the model): the verbs and
// subresources it answers, its operations (reviews, token requests, connect targets,
// computed reads), its table columns and deprecation, on top of what its generic store
// needs (StoreDef: strategy, hooks, conversions). The installer, discovery, OpenAPI and
// admission read it; nothing below the registry does.
import type { TableConvertor } from '../../runtime/table.js';
import type { KubeObject } from '../../runtime/object.js';
import type { GroupResource } from '../../runtime/errors.js';
import type { Verb } from '../../runtime/scheme.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Admission } from '../../admission/interfaces.js';
import type { KubeletClient } from '../../kubelet/client.js';
import type { TransportConfig } from '../../util/proxy/transport.js';
import type { GenericStore } from '../generic/store.js';
import type { StoreDef } from '../generic/store-def.js';

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

export interface ResourceDef extends StoreDef {
  verbs: Verb[];
  subresources?: SubresourceDef[];
  table?: TableConvertor;
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
  /** Served from a CustomResourceDefinition: JSON only, its schema published as written. */
  customResource?: StoreDef['customResource'] & {
    openAPISchema?: Record<string, unknown>;
    /** Unknown fields are what the schema prunes (reported per fieldValidation, then dropped). */
    pruning?: { unknownFields(obj: unknown): string[]; prune(obj: unknown): void };
  };
}


/** The subresource `name` of `def`, if the resource serves one by that name. */
export function subresourceOf(def: ResourceDef, name: string): SubresourceDef | undefined {
  return def.subresources?.find((s) => s.name === name);
}
