// The storage seam. The generic registry talks only to this interface; etcd is one
// implementation and a watch cache may wrap it with the same shape.
import type { KubeObject } from '../runtime/object.js';
import type { Sink } from '../util/async-queue.js';

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export type ResourceVersionMatch = 'NotOlderThan' | 'Exact' | '';

export interface ListOptions {
  /** Upper bound on items returned; 0 means all. */
  limit?: number;
  /** Opaque token from a previous page. */
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  /** Items that fail the predicate are skipped (and do not count towards limit). */
  predicate?: (obj: KubeObject) => boolean;
  /** True when a label or field selector filters, so remainingItemCount is unknown. */
  filtered?: boolean;
  /**
   * The predicate demands this value of an indexed field: a watch cache may read its
   * index instead of every object (the predicate still decides).
   */
  index?: IndexedField;
  /**
   * The caller awaits ListResult.confirmed before answering with the result, so the
   * storage may hand the result over while it still asks etcd about it.
   */
  deferConfirmation?: boolean;
}

/**
 * A field a list or watch selects on with `=` that a watch cache can index (upstream's
 * cacher indexers and trigger functions): only a hint, never a filter of its own, so a
 * storage that ignores it returns the same after the caller's predicate.
 */
export interface IndexedField {
  /** The field selector's field: `spec.nodeName`, `metadata.name`. */
  field: string;
  value: string;
  /** The field's value in a stored object; unset for `metadata.name`, which the key holds. */
  extract?: (obj: KubeObject) => string;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
  /**
   * Only with ListOptions.deferConfirmation: resolves once etcd has confirmed the result is
   * what it would answer, or rejects with the error to answer instead; resolves with
   * another result when this one, read before etcd's word came, is not it.
   */
  confirmed?: Promise<void | ListResult>;
}

export interface PageAhead extends ListResult {
  /**
   * Settles whether etcd would still answer this page (not compacted), asking etcd unless
   * the compactors' revision is known: call it once the page is asked for.
   */
  confirm(): Promise<void>;
  /** Whether confirm() would ask etcd now (false: compaction is known without a question). */
  confirmAsks(): boolean;
}

export interface GetOptions {
  resourceVersion?: string;
  /**
   * A decoded copy of the object the caller already holds (the watch cache's): when etcd's
   * value has its revision it is the same value, so a copy of it is returned instead of
   * decoding the bytes again. Never trusted beyond that check.
   */
  knownCopy?: KubeObject;
  /**
   * The caller only reads what it gets (a GET's answer): when the object is the watch
   * cache's own copy (shared, never changed once stored) it is returned as it is, saving
   * a deep copy per read; any other caller gets an object of its own to change.
   */
  readOnly?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
  /** For MODIFIED/DELETED: the object before the change (drives selector transitions). */
  previous?: KubeObject;
}

export interface WatchOptions {
  /** Start after this revision; '' or '0' means from now with the current state first. */
  resourceVersion?: string;
  /** Send the current state as ADDED events before changes. */
  sendInitialEvents?: boolean;
  recursive: boolean;
  /**
   * The watcher selects on this field value: a watch cache may send it only the events
   * of objects that have or had it (upstream's trigger); others may still arrive.
   */
  trigger?: IndexedField;
}

/** A running watch: an async stream of events that ends when stop() is called. */
export interface WatchStream extends AsyncIterable<WatchEvent> {
  stop(): void;
  /**
   * Instead of iterating (where offered): each event to `sink.onItem` as it arrives, in the
   * producer's call, and `sink.onEnd` once the stream has ended. A watch cache's thousand
   * watchers of one resource then cost no promise per event and watcher, and a consumer
   * that is itself the sink no closure either.
   */
  listen?(sink: Sink<WatchEvent>): void;
}

export type TryUpdate = (current: KubeObject) => Promise<KubeObject | null>;

export interface WriteOptions {
  /** The object expires this many seconds after the write (events, --event-ttl). */
  ttlSeconds?: number;
  /**
   * guaranteedUpdate: the object as a watch cache last saw it, tried first instead of
   * reading etcd (upstream's cachedExistingObject); the write's revision check catches a
   * stale one, and a failure or no-op on it is retried from etcd's current object.
   */
  cachedExisting?: KubeObject;
  /**
   * A create that may share one transaction, and so one revision, with the creates
   * pending beside it (the server's own start-up writes; etcd/create-batch.ts).
   */
  coalesce?: boolean;
}

export interface Storage {
  create(key: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  get(key: string, opts?: GetOptions): Promise<KubeObject>;
  list(prefix: string, opts: ListOptions): Promise<ListResult>;
  /**
   * The page a continue token names, read from memory while the client still reads the
   * page before (undefined where memory cannot answer: nothing is asked of etcd). Once the
   * client asks for it, `confirm()` settles as ListResult.confirmed would have.
   */
  pageAhead?(prefix: string, opts: ListOptions): Promise<PageAhead | undefined>;
  /**
   * Reads the current object, hands it to tryUpdate and writes the result only if the
   * object did not change in between; retries on a race. `tryUpdate` returning null
   * means "no change". When the key is missing and `ignoreNotFound` is set, tryUpdate
   * gets an object with empty metadata (create-on-update).
   */
  guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound?: boolean, opts?: WriteOptions): Promise<{ object: KubeObject; created: boolean }>;
  /**
   * Removes the object if it did not change since it was checked against the
   * preconditions and `validateDeletion`; returns the object removed. `cachedExisting`
   * (a watch cache's copy, as for guaranteedUpdate) is checked first instead of reading
   * etcd; the delete's revision check catches a stale one, which is retried from etcd.
   */
  delete(key: string, preconditions?: Preconditions,
    validateDeletion?: (current: KubeObject) => Promise<void>, cachedExisting?: KubeObject): Promise<KubeObject>;
  watch(key: string, opts: WatchOptions): Promise<WatchStream>;
  count(prefix: string): Promise<number>;
  /** Newest revision the store has seen; used for empty lists and bookmarks. */
  currentRevision(): Promise<string>;
}

/**
 * Storage-level failures; the registry maps them to API errors with resource names.
 * Unreachable: etcd could not take the request. Timeout: etcd did not answer, and a write's
 * outcome is unknown. EtcdRefused: any other failure etcd answered (permission denied, a
 * full database), its message etcd's own text (pkg/storage/etcd/boundary.ts translates
 * etcd's errors).
 */
export type StorageErrorCode =
  | 'KeyNotFound' | 'KeyExists' | 'ResourceVersionConflict' | 'InvalidObj'
  | 'ResourceVersionGone' | 'InvalidContinue' | 'TooLargeResourceVersion' | 'Unreachable' | 'Timeout' | 'EtcdRefused';

export class StorageError extends Error {
  constructor(readonly code: StorageErrorCode, readonly key: string, message: string) {
    super(message);
    this.name = 'StorageError';
  }
}
