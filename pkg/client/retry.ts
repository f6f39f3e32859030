// Read-modify-write through a client (upstream's retry.RetryOnConflict around a get and
// an update): a conflict means someone wrote in between, so read again and redo.
import { StatusError } from '../runtime/errors.js';
import type { KubeObject } from '../runtime/object.js';
import type { ResourceClient, WriteOptions } from './interfaces.js';

const maxAttempts = 5;

/**
 * The updated object; a StatusError (404 when the object is gone) otherwise. A change
 * that returns false has nothing to do: the object is answered as read, unwritten.
 */
export async function updateWithRetry(
  rc: ResourceClient, namespace: string, name: string,
  change: (obj: KubeObject) => void | false | Promise<void | false>, opts: WriteOptions & { subresource?: string; current?: KubeObject } = {},
): Promise<KubeObject> {
  const { current, ...writeOpts } = opts;
  for (let attempt = 1; ; attempt++) {
    // A caller that has just read or written the object saves the first read.
    const next = structuredClone(attempt === 1 && current ? current : await rc.get(namespace, name));
    if ((await change(next)) === false) return next;
    try {
      return await rc.update(namespace, next, writeOpts);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409) || attempt >= maxAttempts) throw err;
    }
  }
}

export function isNotFound(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}
