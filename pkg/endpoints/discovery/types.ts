// Wire shapes of the discovery documents, field for field as upstream v1.28 serializes
// them (meta/v1 APIVersions, APIGroupList, APIGroup, APIResourceList and
// apidiscovery.k8s.io/v2beta1 APIGroupDiscoveryList). Property order matters: JSON.stringify
// keeps insertion order, and clients diffing raw bodies see upstream's order.

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

/** `/api`: served without apiVersion, as upstream's legacy root handler does. */
export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupDocument extends APIGroup {
  kind: 'APIGroup';
  apiVersion: 'v1';
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** Only set when the kind lives in another group (e.g. serviceaccounts/token). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

/** The core list (`/api/v1`) carries no apiVersion upstream; named groups carry `v1`. */
export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion?: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

export type ResourceScope = 'Cluster' | 'Namespaced';

export interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: ResourceScope;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  resources?: APIResourceDiscovery[];
  freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  /** Upstream serializes an ObjectMeta: the core group has no name, and creationTimestamp is null. */
  metadata: { name?: string; creationTimestamp: null };
  versions?: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: 'apidiscovery.k8s.io/v2beta1';
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}
