// What a controller is built from: API clients and shared informers, as upstream's
// controllers get from the controller manager, and the few flags they read. Every
// write goes through a client, so it is authenticated, audited, authorized and admitted
// like any other client's.
import type { Logger } from 'pino';
import type { Authorizer } from '../authorization/interfaces.js';
import type { Informer } from '../client/informer.js';
import type { Client } from '../client/interfaces.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { ClusterSigningOptions } from './certificates/options.js';

export interface InformerSource {
  informerFor(group: string, plural: string): Informer;
}

/** kube-controller-manager's flags that controllers read. */
export interface ControllerOptions {
  controllers: string[];
  enableBootstrapTokenAuth: boolean;
  serviceAccountSigningKeyFile?: string;
  rootCAFile?: string;
  clusterSigning: ClusterSigningOptions;
  csrCleanerDurations?: string;
}

export interface ControllerContext {
  /**
   * A client acting as the service account kube-system/<name> (upstream's
   * --use-service-account-credentials), e.g. client('namespace-controller').
   */
  client(serviceAccount: string): Client;
  /** A client acting as system:kube-controller-manager itself, for the controllers upstream runs on its root credentials (tokens). */
  rootClient(name: string): Client;
  informers: InformerSource;
  /** The served resources (upstream's controllers learn them by discovery). */
  scheme: ResourceScheme;
  log: Logger;
  o: ControllerOptions;
  /** The CA bundle published to workloads (kube-root-ca.crt, token Secrets' ca.crt). */
  rootCA(): string;
  /** Asked as upstream's controllers ask a SubjectAccessReview. */
  authorizer?: Authorizer;
}
