// The objects of one kind that exist, from one list: start-up reconcilers check dozens of
// objects, and a list costs one request where a GET per object costs one each.
import type { KubeObject } from '../runtime/object.js';
import type { ResourceClient } from './interfaces.js';

/** `namespace/name` (namespace '' when cluster-scoped), the key of `listed`. */
export const objectKey = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Every object of the resource in `namespace` ('' for all), by objectKey, with its apiVersion and kind set (list items carry neither). */
export async function listed(rc: ResourceClient, namespace: string, apiVersion: string, kind: string): Promise<Map<string, KubeObject>> {
  const list = await rc.list(namespace);
  return new Map(list.items.map((item) => {
    const obj = { ...item, apiVersion, kind };
    return [objectKey(obj), obj];
  }));
}
