// An etcd event as the watch cache's event, decoding as little as it can. The cache's
// watch does not ask etcd for each event's previous value (prevKv): the cache applies
// every event of its range in revision order from the revision it listed at, so the copy
// it holds for a key IS the value before the event (decoded when it was written). Asking
// etcd for it anyway made etcd read and send every value twice and this replica decode
// it, for about a third of etcd's CPU per write and a tenth of ours. An update costs one
// decode, a deletion none. Where the cache holds no copy (it dropped one it could not
// decode), the caller fetches the previous value from etcd and decodes the event in full.
import type { Etcd3, IEvent } from 'etcd3';
import type { KubeObject } from '../../runtime/object.js';
import type { WatchEvent } from '../interfaces.js';
import { decodeFromStorage, UndecodableValueError } from '../etcd/codec.js';
import { decodeStored } from '../etcd/stored-value.js';
import type { ValueTransformer } from '../value/encryption-at-rest.js';
import { toWatchEvent } from '../etcd/watch.js';

/**
 * The event, or undefined when it needs the previous value and `cached` is not it. A
 * promise only when a transformer unseals the value: each event of every write went
 * through two async functions and an await before.
 */
export function decodeWithCached(ev: IEvent, cached: KubeObject | undefined,
  transformer?: ValueTransformer): WatchEvent | undefined | Promise<WatchEvent | undefined> {
  if (ev.type === 'Put') {
    const added = ev.kv.create_revision === ev.kv.mod_revision;
    if (!added && !cached) return undefined;
    if (transformer) {
      return decodeStored(transformer, ev.kv, ev.kv.mod_revision)
        .then((object) => putEvent(added, object, cached), (err: unknown) => undecodablePut(err, ev, transformer));
    }
    try {
      return putEvent(added, decodeFromStorage(ev.kv.value, ev.kv.mod_revision), cached);
    } catch (err) {
      return undecodablePut(err, ev, transformer);
    }
  }
  if (!cached) return undefined;
  // A deleted object is reported with the revision of its deletion; the cache's copy is
  // shared with readers, so the revision goes on a shallow copy.
  const object = { ...cached, metadata: { ...cached.metadata, resourceVersion: String(ev.kv.mod_revision) } };
  return { type: 'DELETED', object, previous: object };
}

/** A value no codec or provider can read: toWatchEvent reports it and makes the ERROR event. */
function undecodablePut(err: unknown, ev: IEvent, transformer: ValueTransformer | undefined): Promise<WatchEvent> {
  if (!(err instanceof UndecodableValueError)) throw err;
  return toWatchEvent(ev, transformer);
}

function putEvent(added: boolean, object: KubeObject, cached: KubeObject | undefined): WatchEvent {
  return added ? { type: 'ADDED', object } : { type: 'MODIFIED', object, previous: cached };
}

/** The event decoded in full with the key's value before it, read from etcd at the revision before. */
export async function decodeWithPrevious(client: Etcd3, ev: IEvent, transformer?: ValueTransformer): Promise<WatchEvent> {
  const before = await client.kv.range({ key: ev.kv.key, revision: String(Number(ev.kv.mod_revision) - 1) });
  return toWatchEvent({ ...ev, prev_kv: before.kvs[0] }, transformer);
}
