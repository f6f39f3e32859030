// What the parts of a replica are built from.
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import type { Authorizer } from '../authorization/interfaces.js';
import type { InformerFactory } from '../client/factory.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { Storage } from '../storage/interfaces.js';
import type { ServerOptions } from './options.js';

export interface ServerDeps {
  o: ServerOptions;
  log: Logger;
  client: Etcd3;
  storage: Storage;
  scheme: ResourceScheme;
  registry: StoreRegistry;
  informers: InformerFactory;
  /** Resolved client CA bundle file (flag, or generated for --write-admin-kubeconfig). */
  clientCAFile?: string;
  /** PEM of the serving certificate (the default service-account verification key source). */
  servingCert: { cert: string; key: string };
  /** The replica's authorizer, once built (admission plugins and controllers ask it, as upstream asks SubjectAccessReviews). */
  authorizer?: Authorizer;
}
