// Objects a service-account token refers to, read from the watch-fed caches; a cache
// miss falls back to one storage read (upstream's client getter), so an object made a
// moment ago on another replica is still found.
import type { Informer } from '../../client/informer.js';
import type { KubeObject } from '../../runtime/object.js';

export interface ServiceAccountGetter {
  /** Rejects with the NotFound error (its message is upstream's) when absent. */
  serviceAccount(namespace: string, name: string): Promise<KubeObject>;
  secret(namespace: string, name: string): Promise<KubeObject>;
  pod(namespace: string, name: string): Promise<KubeObject>;
}

export interface CachedSource {
  informer: Informer;
  get(namespace: string, name: string): Promise<KubeObject>;
}

export class CachedGetter implements ServiceAccountGetter {
  constructor(private readonly sources: { serviceaccounts: CachedSource; secrets: CachedSource; pods?: CachedSource }) {}

  serviceAccount(namespace: string, name: string): Promise<KubeObject> {
    return read(this.sources.serviceaccounts, namespace, name);
  }

  secret(namespace: string, name: string): Promise<KubeObject> {
    return read(this.sources.secrets, namespace, name);
  }

  pod(namespace: string, name: string): Promise<KubeObject> {
    // Until pods are served, a pod-bound token has nothing to be bound to.
    if (!this.sources.pods) return Promise.reject(new Error(`pods "${name}" not found`));
    return read(this.sources.pods, namespace, name);
  }
}

async function read(src: CachedSource, namespace: string, name: string): Promise<KubeObject> {
  return src.informer.get(namespace, name) ?? src.get(namespace, name);
}
