// The APIServices a replica knows, read from its watch-fed cache: by group version, and
// the service-backed ones, for the proxy, the availability controller and discovery.
import type { Informer } from '../client/informer.js';
import type { KubeObject } from '../runtime/object.js';
import { apiServiceSpec } from './apiservice.js';

export interface APIServiceLookup {
  /** The APIService `<version>.<group>`. */
  get(group: string, version: string): KubeObject | undefined;
  /** Every APIService that names a service. */
  remote(): KubeObject[];
  all(): KubeObject[];
}

export function informerLookup(informer: Informer): APIServiceLookup {
  return {
    get: (group, version) => informer.get('', `${version}.${group}`),
    remote: () => informer.list().filter((o) => apiServiceSpec(o).service !== undefined),
    all: () => informer.list(),
  };
}
