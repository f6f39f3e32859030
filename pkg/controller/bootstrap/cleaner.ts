// The token cleaner (SPEC 5.5): bootstrap token Secrets are deleted once expired (or
// with an expiration that cannot be read), each at its expiry time.
import { StatusError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import {
  bootstrapTokenNamespace, bootstrapTokenSecretType, expirationOf, hasExpired,
} from '../../authentication/bootstrap/token.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue, keyOf, splitKey } from '../workqueue.js';

export function tokenCleanerController(d: ControllerContext): Controller {
  const secrets = d.informers.informerFor('', 'secrets');
  const client = d.client('token-cleaner').resource('', 'secrets');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;

  const sync = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const s = secrets.get(namespace, name);
    if (!s || s.type !== bootstrapTokenSecretType || s.metadata.deletionTimestamp) return;
    if (!hasExpired(s)) {
      const exp = expirationOf(s);
      if (exp !== undefined) queue?.addAfter(key, exp - Date.now() + 50);
      return;
    }
    d.log.info({ secret: key }, 'deleting expired bootstrap token');
    try {
      await client.delete(namespace, name, { preconditions: { uid: s.metadata.uid } });
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  };

  const enqueue = (s: KubeObject): void => {
    if (s.metadata.namespace === bootstrapTokenNamespace && s.type === bootstrapTokenSecretType) queue?.add(keyOf(s.metadata));
  };

  return {
    name: 'tokencleaner',
    start() {
      queue = new KeyedQueue(sync, (key, err) => d.log.warn({ controller: 'tokencleaner', key, err: (err as Error).message }, 'sync failed'));
      if (!handlersAdded) {
        handlersAdded = true;
        secrets.addHandlers({ add: enqueue, update: enqueue });
      } else {
        for (const s of secrets.list(bootstrapTokenNamespace)) enqueue(s);
      }
      const q = queue;
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}
