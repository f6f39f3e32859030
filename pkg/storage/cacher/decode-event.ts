// An etcd event as the watch cache's event, decoding as little as it can: the object
// before the change is the one the cache already holds (decoded when it was written), so
// only the new value is decoded; an update costs one decode, a deletion none. Whenever
// the cache's copy is not exactly the previous value (another mod revision, or none),
// the event is decoded in full as any etcd watch does.
import type { IEvent } from 'etcd3';
import type { KubeObject } from '../../runtime/object.js';
import type { WatchEvent } from '../interfaces.js';
import { decodeFromStorage } from '../etcd/codec.js';
import { toWatchEvent } from '../etcd/watch.js';

export function decodeWithCached(ev: IEvent, cached: KubeObject | undefined): WatchEvent {
  const prev = ev.prev_kv;
  if (!cached || !prev || cached.metadata.resourceVersion !== String(prev.mod_revision)) return toWatchEvent(ev);
  if (ev.type === 'Put') {
    let object: KubeObject;
    try {
      object = decodeFromStorage(ev.kv.value, ev.kv.mod_revision);
    } catch {
      return toWatchEvent(ev); // reports the undecodable value as an ERROR event
    }
    return { type: ev.kv.create_revision === ev.kv.mod_revision ? 'ADDED' : 'MODIFIED', object, previous: cached };
  }
  // A deleted object is reported with the revision of its deletion; the cache's copy is
  // shared with readers, so the revision goes on a shallow copy.
  const object = { ...cached, metadata: { ...cached.metadata, resourceVersion: String(ev.kv.mod_revision) } };
  return { type: 'DELETED', object, previous: object };
}
