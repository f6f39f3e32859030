// The shape csrsigning and csrapproving share: each CSR the informer sees added or
// changed is synced by name through a keyed queue; a restart after losing the election
// re-queues every CSR the informer holds.
import type { Informer } from '../../client/informer.js';
import type { KubeObject } from '../../runtime/object.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';

export function csrQueueController(name: string, d: Pick<ControllerContext, 'log'>, csrs: Informer, sync: (csrName: string) => Promise<void>): Controller {
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;
  const enqueue = (csr: KubeObject) => queue?.add(csr.metadata.name ?? '');
  return {
    name,
    start() {
      const q = new KeyedQueue(sync, (key, err) => d.log.warn({ controller: name, csr: key, err: (err as Error).message }, 'sync failed'));
      queue = q;
      if (!handlersAdded) {
        handlersAdded = true;
        csrs.addHandlers({ add: enqueue, update: enqueue });
      } else {
        for (const csr of csrs.list()) enqueue(csr);
      }
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}
