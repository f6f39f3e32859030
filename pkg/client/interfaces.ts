// The client seam controllers are written against (upstream's dynamic client): every
// call is an API request, so whatever implements it decides how the request travels,
// and the server's answer comes back as the same typed StatusError any handler throws.
import type { DeleteOptions } from '../registry/generic/deletion.js';
import type { KubeList, KubeObject } from '../runtime/object.js';

export type { DeleteOptions };

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface WriteOptions {
  /** Recorded in managedFields; unset: the client's own manager name. */
  fieldManager?: string;
  dryRun?: boolean;
}

export type PatchType =
  | 'application/merge-patch+json'
  | 'application/strategic-merge-patch+json'
  | 'application/json-patch+json';

/** One resource of one group at one version. `namespace` is '' for cluster-scoped objects and all-namespace lists. */
export interface ResourceClient {
  get(namespace: string, name: string): Promise<KubeObject>;
  list(namespace: string, opts?: ListOptions): Promise<KubeList>;
  create(namespace: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  /** PUT of the whole object (its metadata.resourceVersion guards against lost updates); `subresource` e.g. status, finalize, approval. */
  update(namespace: string, obj: KubeObject, opts?: WriteOptions & { subresource?: string }): Promise<KubeObject>;
  patch(namespace: string, name: string, type: PatchType, patch: unknown, opts?: WriteOptions & { subresource?: string }): Promise<KubeObject>;
  delete(namespace: string, name: string, opts?: DeleteOptions): Promise<void>;
  deleteCollection(namespace: string, list?: ListOptions, opts?: DeleteOptions): Promise<void>;
}

export interface Client {
  /** `version` defaults to the group's preferred version for the resource. */
  resource(group: string, resource: string, version?: string): ResourceClient;
}
