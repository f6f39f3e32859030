// The service-account controller (SPEC 5.8): every active namespace has a ServiceAccount
// named `default`; one deleted is made again.
import type { KubeObject } from '../../runtime/object.js';
import { isPlainObject } from '../../runtime/object.js';
import { StatusError } from '../../runtime/errors.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';

export const defaultServiceAccountName = 'default';

export function serviceAccountController(d: ControllerContext): Controller {
  const namespaces = d.informers.informerFor('', 'namespaces');
  const serviceAccounts = d.informers.informerFor('', 'serviceaccounts');
  const client = d.client('service-account-controller').resource('', 'serviceaccounts');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;

  const sync = async (namespace: string): Promise<void> => {
    const ns = namespaces.get('', namespace);
    if (!ns || !isActive(ns)) return;
    if (serviceAccounts.get(namespace, defaultServiceAccountName)) return;
    try {
      await client.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: defaultServiceAccountName } });
    } catch (err) {
      // Another replica or an earlier run made it; a namespace on its way out refuses it.
      if (err instanceof StatusError && (err.code === 409 || err.code === 403 || err.code === 404)) return;
      throw err;
    }
  };

  return {
    name: 'serviceaccount',
    start() {
      queue = new KeyedQueue(sync, (key, err) => d.log.warn({ controller: 'serviceaccount', namespace: key, err: (err as Error).message }, 'sync failed'));
      if (!handlersAdded) {
        handlersAdded = true;
        namespaces.addHandlers({
          add: (o) => queue?.add(o.metadata.name ?? ''),
          update: (o) => queue?.add(o.metadata.name ?? ''),
        });
        serviceAccounts.addHandlers({
          delete: (o) => { if (o.metadata.name === defaultServiceAccountName) queue?.add(o.metadata.namespace ?? ''); },
        });
      } else {
        for (const ns of namespaces.list()) queue.add(ns.metadata.name ?? '');
      }
      const q = queue;
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}

function isActive(ns: KubeObject): boolean {
  const status = isPlainObject(ns.status) ? ns.status : {};
  return status.phase !== 'Terminating' && !ns.metadata.deletionTimestamp;
}
