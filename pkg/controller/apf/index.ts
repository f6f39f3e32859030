// The API Priority and Fairness configuration controller: the leader keeps the bootstrap
// configuration in place (a full pass at start and every minute, as upstream's config
// producer, and at once when a managed object is deleted or edited) and keeps each
// FlowSchema's Dangling condition current. Requests are not throttled.
import type { Logger } from 'pino';
import type { Client } from '../../client/interfaces.js';
import { updateWithRetry } from '../../client/retry.js';
import { StatusError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { InformerSource } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';
import { APFConfigEnsurer, Group } from './ensurer.js';
import { consumerFieldManager, danglingCondition, withDangling } from './status.js';

const ensureKey = '\u0000ensure';
export const resyncIntervalMs = 60_000;

export function apfConfigController(d: { informers: InformerSource; client: Client; log: Logger }, intervalMs = resyncIntervalMs): Controller {
  const ensurer = new APFConfigEnsurer(d.client, d.log);
  const flowSchemas = d.informers.informerFor(Group, 'flowschemas');
  const priorityLevels = d.informers.informerFor(Group, 'prioritylevelconfigurations');
  const fsClient = d.client.resource(Group, 'flowschemas');
  const managedFS = APFConfigEnsurer.managedNames('FlowSchema');
  const managedPL = APFConfigEnsurer.managedNames('PriorityLevelConfiguration');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;

  const syncStatus = async (name: string): Promise<void> => {
    const fs = flowSchemas.get('', name);
    if (!fs || fs.metadata.deletionTimestamp) return;
    const want = danglingCondition(fs, (pl) => priorityLevels.get('', pl) !== undefined);
    if (!withDangling(fs, want, '')) return;
    try {
      await updateWithRetry(fsClient, '', name, (latest) => {
        const status = withDangling(latest, want, new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
        if (!status) return false;
        latest.status = status;
      }, { fieldManager: consumerFieldManager, subresource: 'status' });
    } catch (err) {
      if (err instanceof StatusError && [404, 409].includes(err.code)) return;
      throw err;
    }
  };

  const sync = (key: string): Promise<void> => (key === ensureKey ? ensurer.ensure() : syncStatus(key));

  return {
    name: 'priority-and-fairness-config',
    start() {
      const q = new KeyedQueue(sync, (key, err) => d.log.warn({ controller: 'priority-and-fairness-config', key, err: (err as Error).message }, 'sync failed'));
      queue = q;
      q.add(ensureKey);
      const timer = setInterval(() => q.add(ensureKey), intervalMs);
      timer.unref();
      if (!handlersAdded) {
        handlersAdded = true;
        const schemaChanged = (obj: KubeObject) => {
          queue?.add(obj.metadata.name ?? '');
          if (managedFS.has(obj.metadata.name ?? '')) queue?.add(ensureKey);
        };
        const levelChanged = (obj: KubeObject) => {
          for (const fs of flowSchemas.list()) queue?.add(fs.metadata.name ?? '');
          if (managedPL.has(obj.metadata.name ?? '')) queue?.add(ensureKey);
        };
        flowSchemas.addHandlers({ add: schemaChanged, update: schemaChanged, delete: schemaChanged });
        priorityLevels.addHandlers({ add: levelChanged, delete: levelChanged, update: levelChanged });
      } else {
        for (const fs of flowSchemas.list()) q.add(fs.metadata.name ?? '');
      }
      return () => { clearInterval(timer); q.stop(); if (queue === q) queue = undefined; };
    },
  };
}
