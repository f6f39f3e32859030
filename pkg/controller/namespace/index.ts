// The namespace controller: a namespace with a deletionTimestamp is emptied and then
// released (see deleter.ts). Besides namespace events, any change to an object in a
// terminating namespace brings the namespace back promptly, so objects whose finalizers
// clear do not wait for the periodic re-check.
import type { KubeObject } from '../../runtime/object.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue, type RetryPolicy } from '../workqueue.js';

/** Deletion work is retried until it succeeds, as upstream's controllers do. */
const retryForever: RetryPolicy = { maxRetries: Infinity, baseDelayMs: 10 };
import { NamespacedResourcesDeleter, namespacedResources } from './deleter.js';

export const controllerName = 'namespace';

export interface NamespaceControllerOptions {
  /** Delay before a namespace whose content has not gone yet is looked at again. */
  recheckMs?: number;
}

export function namespaceController(d: ControllerContext, o: NamespaceControllerOptions = {}): Controller {
  const deleter = new NamespacedResourcesDeleter(d.scheme, d.client('namespace-controller'));
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;
  const namespaces = d.informers.informerFor('', 'namespaces');
  const terminating = (name: string | undefined): boolean => Boolean(name && namespaces.get('', name)?.metadata.deletionTimestamp);

  return {
    name: controllerName,
    start() {
      const q = new KeyedQueue(async (name) => {
        const waitSeconds = await deleter.sync(name);
        if (waitSeconds > 0) q.addAfter(name, o.recheckMs ?? waitSeconds * 1000);
      }, (name, err) => d.log.warn({ controller: controllerName, namespace: name, err: (err as Error).message }, 'namespace deletion incomplete'), retryForever);
      queue = q;
      const enqueue = (ns: KubeObject): void => { if (ns.metadata.deletionTimestamp) queue?.add(ns.metadata.name ?? ''); };
      if (!handlersAdded) {
        handlersAdded = true;
        namespaces.addHandlers({ add: enqueue, update: enqueue });
        const touched = (obj: KubeObject): void => {
          const ns = obj.metadata.namespace;
          if (terminating(ns)) queue?.addAfter(ns!, 50);
        };
        for (const def of namespacedResources(d.scheme)) {
          d.informers.informerFor(def.group, def.plural).addHandlers({ update: touched, delete: touched });
        }
      } else {
        for (const ns of namespaces.list()) enqueue(ns);
      }
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}
