// The root CA publisher (upstream's root-ca-cert-publisher, SPEC 5.8): every active
// namespace holds a ConfigMap kube-root-ca.crt whose ca.crt is the cluster's root CA.
// Edits to it are put back; a deleted one is made again.
import type { KubeObject } from '../../runtime/object.js';
import { StatusError } from '../../runtime/errors.js';
import { controllerUser as controllerUserFor, internalScope } from '../../registry/generic/internal-scope.js';
import type { ServerDeps } from '../../server/deps.js';
import type { Controller } from '../manager.js';
import { rootCA } from '../rootca.js';
import { KeyedQueue } from '../workqueue.js';

export const rootCAConfigMapName = 'kube-root-ca.crt';
export const rootCAKey = 'ca.crt';

const controllerUser = controllerUserFor('root-ca-cert-publisher');

export function rootCACertPublisher(d: ServerDeps): Controller {
  const ca = rootCA(d);
  const namespaces = d.informers.informerFor('', 'namespaces');
  const configMaps = d.informers.informerFor('', 'configmaps');
  const store = d.registry.store('', 'configmaps');
  const scope = internalScope(controllerUser, 'kube-controller-manager');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;

  const sync = async (namespace: string): Promise<void> => {
    const ns = namespaces.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') return;
    const current = configMaps.get(namespace, rootCAConfigMapName);
    try {
      if (!current) {
        await store.create(namespace, {
          apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCAConfigMapName }, data: { [rootCAKey]: ca },
        }, scope);
        return;
      }
      const data = current.data as Record<string, string> | undefined;
      if (data?.[rootCAKey] === ca && Object.keys(data).length === 1) return;
      await store.update(namespace, rootCAConfigMapName, async (latest) => {
        if (!latest) throw new StatusError(404, 'NotFound', 'gone');
        return { ...latest, data: { [rootCAKey]: ca }, binaryData: undefined };
      }, scope);
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
