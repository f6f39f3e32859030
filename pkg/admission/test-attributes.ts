// Helpers for the plugins' unit tests: request attributes, a rejection catcher, and a
// lister over a fixed set of objects.
import type { KubeObject } from '../runtime/object.js';
import type { StatusError } from '../runtime/errors.js';
import type { AdmissionAttributes } from './interfaces.js';
import type { Lister } from './lister.js';

export function attrs(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'ConfigMap', resource: 'configmaps', subresource: '',
    namespace: 'team', name: 'obj', user: { name: 'u', groups: [] }, dryRun: false, ...over,
  };
}

export async function rejection(p: Promise<void> | undefined): Promise<StatusError> {
  try { await p; } catch (e) { return e as StatusError; }
  throw new Error('admitted');
}

export function staticLister(objects: KubeObject[], synced = true): Lister {
  return {
    get: (ns, name) => objects.find((o) => (o.metadata.namespace ?? '') === ns && o.metadata.name === name),
    list: () => objects,
    ready: async () => synced,
  };
}
