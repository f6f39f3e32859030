// The root CA publisher (upstream's root-ca-cert-publisher, SPEC 5.8): every active
// namespace holds a ConfigMap kube-root-ca.crt whose ca.crt is the cluster's root CA.
// Edits to it are put back; a deleted one is made again.
import type { KubeObject } from '../../runtime/object.js';
import { StatusError } from '../../runtime/errors.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';

export const rootCAConfigMapName = 'kube-root-ca.crt';
export const rootCAKey = 'ca.crt';

export function rootCACertPublisher(d: ControllerContext): Controller {
  const ca = d.rootCA();
  const namespaces = d.informers.informerFor('', 'namespaces');
  const configMaps = d.informers.informerFor('', 'configmaps');
  const client = d.client('root-ca-cert-publisher').resource('', 'configmaps');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;

  const sync = async (namespace: string): Promise<void> => {
    const ns = namespaces.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') return;
    const current = configMaps.get(namespace, rootCAConfigMapName);
    try {
      if (!current) {
        await client.create(namespace, {
          apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCAConfigMapName }, data: { [rootCAKey]: ca },
        });
        return;
      }
      const data = current.data as Record<string, string> | undefined;
      if (data?.[rootCAKey] === ca && Object.keys(data).length === 1) return;
      // From the informer's copy, as upstream: its role may create and update ConfigMaps
      // but not read them. A conflict means a newer copy is on its way to the informer.
      const next = structuredClone(current);
      next.data = { [rootCAKey]: ca };
      delete next.binaryData;
      await client.update(namespace, next);
    } catch (err) {
      // Made concurrently, or the namespace is going away: the next event settles it.
      if (err instanceof StatusError && [403, 404, 409].includes(err.code)) return;
      throw err;
    }
  };

  return {
    name: 'root-ca-cert-publisher',
    start() {
      const q = new KeyedQueue(sync, (ns, err) => d.log.warn({ controller: 'root-ca-cert-publisher', namespace: ns, err: (err as Error).message }, 'sync failed'));
      queue = q;
      if (!handlersAdded) {
        handlersAdded = true;
        const enqueueNamespace = (obj: KubeObject) => queue?.add(obj.metadata.name ?? '');
        const enqueueOwner = (obj: KubeObject) => {
          if (obj.metadata.name === rootCAConfigMapName) queue?.add(obj.metadata.namespace ?? '');
        };
        namespaces.addHandlers({ add: enqueueNamespace, update: enqueueNamespace });
        configMaps.addHandlers({ update: enqueueOwner, delete: enqueueOwner });
      } else {
        for (const ns of namespaces.list()) q.add(ns.metadata.name ?? '');
      }
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}
