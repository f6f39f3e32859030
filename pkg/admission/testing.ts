// Unit-test helpers for admission plugins: request attributes with sensible defaults,
// and the error a rejected call threw.
import type { AdmissionAttributes } from './interfaces.js';
import type { KubeObject } from '../runtime/object.js';
import { StatusError } from '../runtime/errors.js';
import type { NamespaceLookup } from './namespaces.js';

export function podAttrs(spec: Record<string, unknown>, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '',
    namespace: 'team', name: 'p', user: { name: 'alice', groups: [] }, dryRun: false,
    object: { metadata: { name: 'p', namespace: 'team' }, spec }, ...over,
  };
}

export async function rejection(p: Promise<void>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('admitted');
}

/** Namespaces held in memory: `cache` is what the informer has seen, `live` what storage has. */
export function namespaces(cache: Record<string, KubeObject>, live: Record<string, KubeObject> = cache,
  synced = true): NamespaceLookup & { liveLookups: string[] } {
  const liveLookups: string[] = [];
  return {
    liveLookups,
    cached: (name) => cache[name],
    waitForSync: async () => synced,
    live: async (name) => { liveLookups.push(name); return live[name]; },
  };
}

export function namespace(name: string, annotations: Record<string, string> = {}): KubeObject {
  return { metadata: { name, annotations } };
}
