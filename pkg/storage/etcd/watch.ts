// Watch on etcd: optional initial state as ADDED events (read at one revision), then
// etcd's change stream from the revision after it. Compaction of the requested
// revision ends the stream with one ERROR event carrying 410 Expired.
import type { IWatchResponse } from 'etcd3';
import type { KubeObject } from '../../runtime/object.js';
import { AsyncQueue } from '../../util/async-queue.js';
import type { WatchEvent, WatchOptions, WatchStream } from '../interfaces.js';
import { decodeFromStorage } from './codec.js';
import type { EtcdStorage } from './store.js';

export function expiredEvent(message: string): WatchEvent {
  return {
    type: 'ERROR',
    object: {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message, reason: 'Expired', code: 410,
    } as unknown as KubeObject,
  };
}

/** Marks the end of the initial state; handlers forward it only to WatchList clients. */
function initialEventsEnd(resourceVersion: string): WatchEvent {
  return {
    type: 'BOOKMARK',
    object: { metadata: { resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } } },
  };
}

export async function startWatch(store: EtcdStorage, key: string, opts: WatchOptions): Promise<WatchStream> {
  const queue = new AsyncQueue<WatchEvent>();
  const prefix = opts.recursive && !key.endsWith('/') ? `${key}/` : key;
  let startRev: number;
  const rv = opts.resourceVersion ?? '';
  if (rv === '' || rv === '0' || opts.sendInitialEvents) {
    if (opts.recursive) {
      const listed = await store.list(prefix, { resourceVersion: rv && rv !== '0' ? rv : undefined, resourceVersionMatch: rv && rv !== '0' ? 'NotOlderThan' : '' });
      for (const item of listed.items) queue.push({ type: 'ADDED', object: item });
      startRev = Number(listed.resourceVersion) + 1;
      queue.push(initialEventsEnd(listed.resourceVersion));
    } else {
      const current = Number(await store.currentRevision());
      try {
        const obj = await store.get(key);
        queue.push({ type: 'ADDED', object: obj });
      } catch { /* absent: nothing to announce */ }
      startRev = current + 1;
    }
  } else {
    startRev = Number(rv) + 1;
  }

  const builder = store.client.watch().withPreviousKV().startRevision(String(startRev));
  const watcher = await (opts.recursive ? builder.prefix(prefix) : builder.key(key)).create();
  let stopped = false;
  watcher.on('data', (res: IWatchResponse) => {
    if (stopped) return;
    for (const ev of res.events) {
      if (ev.type === 'Put') {
        const obj = decodeFromStorage(ev.kv.value, ev.kv.mod_revision);
        const previous = ev.prev_kv ? decodeFromStorage(ev.prev_kv.value, ev.prev_kv.mod_revision) : undefined;
        queue.push({ type: ev.kv.create_revision === ev.kv.mod_revision ? 'ADDED' : 'MODIFIED', object: obj, previous });
      } else if (ev.prev_kv) {
        // A deleted object is reported with the revision of its deletion, as upstream does.
        const obj = decodeFromStorage(ev.prev_kv.value, ev.kv.mod_revision);
        queue.push({ type: 'DELETED', object: obj, previous: obj });
      }
    }
  });
  watcher.on('error', (err: Error) => {
    if (stopped) return;
    if (/compacted/.test(err.message)) {
      queue.push(expiredEvent(`too old resource version: ${startRev - 1}`));
    }
    queue.close();
  });
  const stop = () => {
    if (stopped) return;
    stopped = true;
    queue.close();
    watcher.cancel().catch(() => undefined);
  };
  return {
    stop,
    [Symbol.asyncIterator]: () => {
      const it = queue[Symbol.asyncIterator]();
      return { next: () => it.next(), return: async () => { stop(); return { value: undefined, done: true }; } };
    },
  };
}
