// Watch on etcd: optional initial state as ADDED events (read at one revision) closed by
// an initial-events-end BOOKMARK, then etcd's change stream from the revision after it,
// through our own watch wrapper (which resumes across reconnects without gaps).
// etcd progress notifications become BOOKMARK events whose revision is safe: every
// change up to it was already emitted. A compacted start ends the stream with one
// ERROR event holding a 410 Expired Status, as upstream's watch cache does.
import type { Etcd3, IEvent } from 'etcd3';
import type { KubeObject } from '../../runtime/object.js';
import { AsyncQueue } from '../../util/async-queue.js';
import {
  StorageError, type ListOptions, type ListResult, type WatchEvent, type WatchOptions, type WatchStream,
} from '../interfaces.js';
import { UndecodableValueError } from './codec.js';
import { decodeStored } from './stored-value.js';
import type { ValueTransformer } from '../value/encryption-at-rest.js';
import { reportUndecodable } from './undecodable.js';
import { reportProgress } from './progress.js';
import { prefixEnd } from './keys.js';
import { watchRange, type RangeWatch } from './watcher/range-watch.js';

export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

export function expiredEvent(message: string): WatchEvent {
  return {
    type: 'ERROR',
    object: {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message, reason: 'Expired', code: 410,
    } as unknown as KubeObject,
  };
}

/** Upstream's message for a watch from a revision older than the retained history. */
export function tooOldMessage(requested: number, compactRevision: number): string {
  return `too old resource version: ${requested} (${compactRevision - 1})`;
}

function internalErrorEvent(message: string): WatchEvent {
  return {
    type: 'ERROR',
    object: {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `Internal error occurred: ${message}`, reason: 'InternalError', code: 500,
    } as unknown as KubeObject,
  };
}

export function bookmarkEvent(resourceVersion: string, annotations?: Record<string, string>): WatchEvent {
  const metadata: KubeObject['metadata'] = { resourceVersion };
  if (annotations) metadata.annotations = annotations;
  return { type: 'BOOKMARK', object: { metadata } };
}

function parseRevision(rv: string, key: string): number {
  if (!/^\d+$/.test(rv)) throw new StorageError('InvalidObj', key, `invalid resource version: ${rv}`);
  return Number(rv);
}

/**
 * What a watch reads from the store it watches (the etcd store passes itself): the
 * initial state for sendInitialEvents, the revision to start from, the etcd client.
 */
export interface WatchSource {
  readonly client: Etcd3;
  list(prefix: string, opts: ListOptions): Promise<ListResult>;
  getWithRevision(key: string, minResourceVersion?: string): Promise<{ object?: KubeObject; revision: string }>;
  currentRevision(): Promise<string>;
  /** Encryption at rest: how the watched values are read. */
  readonly transformer?: ValueTransformer;
}

export async function startWatch(store: WatchSource, key: string, opts: WatchOptions): Promise<WatchStream> {
  const queue = new AsyncQueue<WatchEvent>();
  const prefix = opts.recursive && !key.endsWith('/') ? `${key}/` : key;
  const rv = opts.resourceVersion ?? '';
  const requested = rv === '' || rv === '0' ? 0 : parseRevision(rv, key);
  let startRev: number;
  if (opts.sendInitialEvents) {
    let atRevision: string;
    if (opts.recursive) {
      const listed = await store.list(prefix, {
        resourceVersion: requested > 0 ? rv : undefined,
        resourceVersionMatch: requested > 0 ? 'NotOlderThan' : '',
      });
      for (const item of listed.items) queue.push({ type: 'ADDED', object: item });
      atRevision = listed.resourceVersion;
    } else {
      const got = await store.getWithRevision(key, requested > 0 ? rv : undefined);
      if (got.object) queue.push({ type: 'ADDED', object: got.object });
      atRevision = got.revision;
    }
    queue.push(bookmarkEvent(atRevision, { [initialEventsEndAnnotation]: 'true' }));
    startRev = Number(atRevision) + 1;
  } else {
    const current = Number(await store.currentRevision());
    startRev = requested === 0 ? current + 1 : requested + 1;
    // Tells the consumer where the stream starts, so its first bookmark has a revision;
    // not for a revision etcd has not reached yet (the watch waits for it).
    if (startRev - 1 <= current) queue.push(bookmarkEvent(String(startRev - 1)));
  }

  const k = Buffer.from(prefix);
  const watch: RangeWatch = watchRange(store.client, {
    key: k, rangeEnd: opts.recursive ? prefixEnd(k) : undefined,
    startRevision: startRev, prevKv: true, progressNotify: true,
  });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    watch.close();
    queue.close();
  };
  void (async () => {
    for await (const msg of watch) {
      if (stopped) break;
      if (msg.type === 'events') {
        for (const ev of msg.events) {
          const out = await toWatchEvent(ev, store.transformer);
          queue.push(out);
          if (out.type === 'ERROR') { stop(); break; }
        }
      } else if (msg.type === 'progress') {
        reportProgress(key);
        queue.push(bookmarkEvent(String(msg.revision)));
      } else if (msg.type === 'compacted') {
        queue.push(expiredEvent(tooOldMessage(msg.lastRevision, msg.compactRevision)));
      } else {
        queue.push(internalErrorEvent(msg.error.message));
      }
    }
    queue.close();
  })();
  return {
    stop,
    [Symbol.asyncIterator]: () => ({
      next: () => queue.next(),
      return: async () => { stop(); return { value: undefined, done: true }; },
    }),
  };
}

export async function toWatchEvent(ev: IEvent, transformer: ValueTransformer | undefined): Promise<WatchEvent> {
  try {
    return await decodeEvent(ev, transformer);
  } catch (err) {
    if (!(err instanceof UndecodableValueError)) throw err;
    const key = ev.kv.key.toString();
    reportUndecodable(key, err.message);
    // As upstream's watcher: the stream ends with an error and the client relists.
    return internalErrorEvent(`unable to decode the object stored at ${key}: ${err.message}`);
  }
}

async function decodeEvent(ev: IEvent, t: ValueTransformer | undefined): Promise<WatchEvent> {
  if (ev.type === 'Put') {
    const obj = await decodeStored(t, ev.kv, ev.kv.mod_revision);
    const previous = ev.prev_kv ? await decodeStored(t, ev.prev_kv, ev.prev_kv.mod_revision) : undefined;
    return { type: ev.kv.create_revision === ev.kv.mod_revision ? 'ADDED' : 'MODIFIED', object: obj, previous };
  }
  if (!ev.prev_kv) {
    // Without the previous value there is no object to report; upstream ends the watch
    // with an error too, and the client relists.
    return internalErrorEvent(`etcd event received with PrevKv=nil (key=${JSON.stringify(ev.kv.key.toString())}, modRevision=${ev.kv.mod_revision}, type=DELETE)`);
  }
  // A deleted object is reported with the revision of its deletion, as upstream does.
  const obj = await decodeStored(t, ev.prev_kv, ev.kv.mod_revision);
  return { type: 'DELETED', object: obj, previous: obj };
}
