// How admission plugins that read namespace annotations see namespaces: the replica's
// watch-fed cache, and storage when the cache has not seen the namespace yet (it may
// have been created a moment ago, possibly through another replica).
import type { KubeObject } from '../runtime/object.js';
import { admissionForbidden } from './forbidden.js';
import type { AdmissionAttributes } from './interfaces.js';
import { readyTimeoutMs } from './lister.js';

export interface NamespaceLookup {
  cached(name: string): KubeObject | undefined;
  /** Resolves once the cache has its first list; false when it does not in time. */
  waitForSync(timeoutMs: number): Promise<boolean>;
  /** Storage; undefined when the namespace does not exist. */
  live(name: string): Promise<KubeObject | undefined>;
}

/** WaitForReady: a plugin whose namespace cache never filled refuses with 403. */
export async function waitForNamespaces(source: NamespaceLookup, a: AdmissionAttributes): Promise<void> {
  if (!(await source.waitForSync(readyTimeoutMs))) throw admissionForbidden(a, 'not yet ready to handle request');
}

/** The namespace from the cache, else from storage; undefined when neither has it. */
export async function lookupNamespace(source: NamespaceLookup, name: string): Promise<KubeObject | undefined> {
  return source.cached(name) ?? source.live(name);
}
