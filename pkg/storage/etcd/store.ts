// Storage on etcd v3. Every write is one transaction guarded by a revision compare;
// the object's mod_revision is its resourceVersion and a list's header revision is the
// list's resourceVersion. Lists read one revision, so paginated lists are snapshots.
import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse } from 'etcd3';
import { deepCopy, withProperty, type KubeObject } from '../../runtime/object.js';
import { isShared } from '../../runtime/serializer/shared-encodings.js';
import {
  StorageError, type GetOptions, type ListOptions, type ListResult, type Preconditions,
  type Storage, type TryUpdate, type WriteOptions, type WatchOptions, type WatchStream,
} from '../interfaces.js';
import { encodeForStorage, encodesTo, UndecodableValueError, type StorageMediaType } from './codec.js';
import { readStored, sealStored } from './stored-value.js';
import type { ValueTransformer } from '../value/encryption-at-rest.js';
import { reportUndecodable } from './undecodable.js';
import { decodeContinue, encodeContinue, ExpiredContinueError } from './continue.js';
import { prefixEnd } from './keys.js';
import { startWatch } from './watch.js';
import { LeaseManager } from './leases.js';
import { guardEtcd } from './boundary.js';
import { RevisionQuestions } from './revision-questions.js';
import { CreateBatcher } from './create-batch.js';

const maxUpdateRetries = 64;
/** How long a read for a revision etcd has not reached yet waits (upstream: 3 s). */
const freshnessWaitMs = 3000;
/** Keys per etcd range when a list has no limit. */
const unlimitedPageSize = 1000;

/**
 * An object and the etcd mod revision it was read at; `stale` when its bytes were
 * encrypted by a provider or key that no longer writes (so even a no-op update rewrites it);
 * `data` its codec bytes (absent for the watch cache's copy).
 */
interface KeyState { obj: KubeObject; modRevision: string; stale?: boolean; data?: Buffer }
interface StartingState { state: KeyState | undefined; verified: boolean }
interface Put { value: Buffer; lease: string | number }

/** Thrown inside a list when the revision read is older than required: wait, then retry. */
class FreshnessWait extends Error {
  constructor(readonly want: number, readonly seen: string) { super(`waiting for revision ${want}`); }
}

/** "" and "0" ask for no particular revision; anything else must be a revision number. */
function parseMinRevision(rv: string | undefined, key: string): number {
  if (rv === undefined || rv === '' || rv === '0') return 0;
  if (!/^\d+$/.test(rv)) throw new StorageError('InvalidObj', key, `invalid resource version: ${rv}`);
  return Number(rv);
}

/** Told what each storage operation against etcd cost (etcd_request_duration_seconds, apiserver_storage_list_*). */
export interface EtcdObserver {
  request(operation: 'create' | 'get' | 'list' | 'update' | 'delete' | 'count', key: string, seconds: number, failed: boolean): void;
  /** One list: keys read from etcd, objects the predicate looked at, objects returned. */
  list(prefix: string, fetched: number, evaluated: number, returned: number): void;
}

export interface EtcdStorageOptions {
  leaseReuseSeconds?: number;
  /** The key whose range answers etcd's revision alone (RevisionQuestions). */
  revisionKey?: string;
}

export class EtcdStorage implements Storage {
  private readonly leases: LeaseManager;
  private readonly creates: CreateBatcher;

  readonly client: Etcd3;
  private readonly revisions: RevisionQuestions;

  constructor(rawClient: Etcd3, readonly mediaType: StorageMediaType = 'application/vnd.kubernetes.protobuf',
    private readonly observe?: EtcdObserver, readonly transformer?: ValueTransformer, opts: EtcdStorageOptions = {}) {
    this.client = guardEtcd(rawClient);
    this.revisions = new RevisionQuestions(rawClient, this.client, opts.revisionKey);
    this.leases = new LeaseManager(this.client, opts.leaseReuseSeconds);
    this.creates = new CreateBatcher((req) => this.client.kv.txn(req));
  }

  private async timed<T>(operation: Parameters<EtcdObserver['request']>[0], key: string, fn: () => Promise<T>): Promise<T> {
    if (!this.observe) return fn();
    const start = process.hrtime.bigint();
    let failed = false;
    try {
      return await fn();
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      this.observe.request(operation, key, Number(process.hrtime.bigint() - start) / 1e9, failed);
    }
  }

  /** A put's value and lease (0: none); a promise only for a transformer or TTL (an await is a turn of the microtask queue). */
  private putOf(key: Buffer, bytes: Buffer, opts: WriteOptions): Put | Promise<Put> {
    return this.transformer || opts.ttlSeconds ? this.sealAndLease(key, bytes, opts) : { value: bytes, lease: 0 };
  }

  private async sealAndLease(key: Buffer, bytes: Buffer, opts: WriteOptions): Promise<Put> {
    const value = await sealStored(this.transformer, key, bytes);
    return { value, lease: opts.ttlSeconds && opts.ttlSeconds > 0 ? await this.leases.leaseFor(opts.ttlSeconds) : 0 };
  }

  /** A value nothing can decode fails the read with its key and reason; it is never overwritten. */
  private async decode(kv: { key: Buffer; value: Buffer; mod_revision: string }): Promise<KubeObject> {
    return (await this.read(kv)).obj;
  }

  private async read(kv: { key: Buffer; value: Buffer; mod_revision: string }): Promise<{ obj: KubeObject; stale: boolean; data: Buffer }> {
    try {
      return await readStored(this.transformer, kv, kv.mod_revision);
    } catch (err) {
      if (!(err instanceof UndecodableValueError)) throw err;
      const key = kv.key.toString();
      reportUndecodable(key, err.message);
      throw new StorageError('InvalidObj', key, `unable to decode the object stored at ${key}: ${err.message}`);
    }
  }

  private range(req: IRangeRequest): Promise<IRangeResponse> {
    return this.client.kv.range(req);
  }

  create(key: string, obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    return this.timed('create', key, () => this.createUntimed(key, obj, opts));
  }

  private async createUntimed(key: string, obj: KubeObject, opts: WriteOptions): Promise<KubeObject> {
    const k = Buffer.from(key);
    const put = this.putOf(k, encodeForStorage(obj, this.mediaType), opts);
    const { value, lease } = put instanceof Promise ? await put : put;
    const revision = await (opts.coalesce ? this.creates.create(k, value, lease) : this.creates.createNow(k, value, lease));
    if (revision === undefined) throw new StorageError('KeyExists', key, `key exists: ${key}`);
    return withRevision(obj, revision);
  }

  async get(key: string, opts: GetOptions = {}): Promise<KubeObject> {
    const got = await this.timed('get', key, () => this.getWithRevision(key, opts.resourceVersion, opts.knownCopy, opts.readOnly));
    if (!got.object) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return got.object;
  }

  /**
   * Reads one key no older than `minResourceVersion` (unset or "0": the newest), with the
   * revision the read saw; the object is undefined when the key does not exist.
   * `known`, `readOnly`: GetOptions.knownCopy and readOnly.
   */
  async getWithRevision(key: string, minResourceVersion?: string, known?: KubeObject, readOnly = false): Promise<{ object?: KubeObject; revision: string }> {
    const min = parseMinRevision(minResourceVersion, key);
    for (;;) {
      const res = await this.range({ key: Buffer.from(key) });
      if (Number(res.header.revision) < min) {
        await this.waitForRevision(min, res.header.revision, key);
        continue;
      }
      const kv = res.kvs[0];
      if (!kv) return { revision: res.header.revision };
      // One key at one mod revision has one value: the copy saves a protobuf decode
      // (about 5 us for a 1 KB ConfigMap against 0.8 us for the copy).
      const same = known !== undefined && known.metadata.resourceVersion === kv.mod_revision;
      const object = same ? (readOnly && isShared(known) ? known : deepCopy(known)) : await this.decode(kv);
      return { object, revision: res.header.revision };
    }
  }

  /**
   * A read asking for a revision newer than etcd has seen waits briefly for it (upstream's
   * watch cache waits 3 s), then fails with "Too large resource version".
   */
  private async waitForRevision(want: number, seen: string, key: string): Promise<void> {
    const deadline = Date.now() + freshnessWaitMs;
    let current = Number(seen);
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      current = Number(await this.currentRevision());
      if (current >= want) return;
    }
    throw new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${want}, current: ${current}`);
  }

  /**
   * Lists at one etcd revision: the newest (rv unset, "0", or not older than rv), an exact
   * one (Exact, or a legacy limit with rv), or the continue token's. Reading stops after
   * `limit` items that pass the predicate; with a predicate etcd is read page after page,
   * so a page is never empty while a continue token says there is more.
   */
  async list(prefix: string, opts: ListOptions): Promise<ListResult> {
    return this.timed('list', prefix, () => this.listUntimed(prefix, opts));
  }

  private async listUntimed(prefix: string, opts: ListOptions): Promise<ListResult> {
    const keyPrefix = Buffer.from(prefix.endsWith('/') ? prefix : `${prefix}/`);
    const rangeEnd = prefixEnd(keyPrefix);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    let firstKey = keyPrefix;
    let exact = 0;
    let min = 0;
    if (opts.continue) {
      const tok = decodeContinue(opts.continue, prefix);
      firstKey = Buffer.concat([keyPrefix, Buffer.from(tok.start)]);
      if (tok.rv > 0) exact = tok.rv;
    } else {
      const rv = parseMinRevision(opts.resourceVersion, prefix);
      const isExact = opts.resourceVersionMatch === 'Exact' || (!opts.resourceVersionMatch && limit > 0);
      if (isExact) exact = rv; else min = rv;
    }
    for (;;) {
      try {
        return await this.listAt(keyPrefix, rangeEnd, firstKey, exact, min, limit, opts);
      } catch (err) {
        if (err instanceof FreshnessWait) {
          await this.waitForRevision(err.want, err.seen, prefix);
          continue;
        }
        if (err instanceof StorageError && err.code === 'ResourceVersionGone' && opts.continue) {
          // As upstream: a new token at the newest revision lets the client finish the list.
          throw new ExpiredContinueError(encodeContinue(-1, firstKey.subarray(keyPrefix.length).toString('utf8')));
        }
        throw err;
      }
    }
  }

  private async listAt(keyPrefix: Buffer, rangeEnd: Buffer, firstKey: Buffer, exact: number, min: number,
    limit: number, opts: ListOptions): Promise<ListResult> {
    const predicate = opts.predicate ?? (() => true);
    const items: KubeObject[] = [];
    let readRevision = exact;
    let startKey = firstKey;
    let more = false;
    let lastKey: Buffer | undefined;
    let remaining: number | undefined;
    // Unlimited lists are read in pages too (at one revision): a single response for a
    // large collection would pass gRPC's default 4 MiB message limit.
    let pageSize = limit > 0 ? limit : unlimitedPageSize;
    let fetched = 0;
    let evaluated = 0;
    for (;;) {
      let res: IRangeResponse;
      try {
        res = await this.range({ key: startKey, range_end: rangeEnd, revision: readRevision, limit: pageSize });
      } catch (err) {
        if (err instanceof StorageError && err.code === 'TooLargeResourceVersion' && exact > 0) {
          throw new FreshnessWait(exact, '0');
        }
        throw err;
      }
      if (readRevision === 0) {
        if (Number(res.header.revision) < min) throw new FreshnessWait(min, res.header.revision);
        readRevision = Number(res.header.revision);
      }
      let stoppedAt = -1;
      fetched += res.kvs.length;
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i];
        lastKey = kv.key;
        evaluated++;
        const obj = await this.decode(kv);
        if (predicate(obj)) items.push(obj);
        if (limit > 0 && items.length >= limit) { stoppedAt = i; break; }
      }
      if (stoppedAt >= 0) {
        // `count` is every key from startKey to the range end at this revision.
        const left = Number(res.count) - (stoppedAt + 1);
        more = left > 0;
        if (more && !opts.filtered) remaining = left;
        break;
      }
      if (!res.more || res.kvs.length === 0) break;
      startKey = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
      // Filtered: read growing pages until enough items match (upstream doubles too).
      if (limit > 0) pageSize = Math.min(pageSize * 2, 10000);
    }
    this.observe?.list(keyPrefix.toString(), fetched, evaluated, items.length);
    const result: ListResult = { items, resourceVersion: String(readRevision) };
    if (more && lastKey) {
      const next = Buffer.concat([lastKey, Buffer.from([0])]).subarray(keyPrefix.length).toString('utf8');
      result.continue = encodeContinue(readRevision, next);
      if (remaining !== undefined && remaining > 0) result.remainingItemCount = remaining;
    }
    return result;
  }

  async guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound = false, opts: WriteOptions = {}): Promise<{ object: KubeObject; created: boolean }> {
    return this.timed('update', key, () => this.updateUntimed(key, preconditions, tryUpdate, ignoreNotFound, opts));
  }

  /** An object as read from etcd, with the revision a write of it must compare against. */
  private async stateOf(kv: { key: Buffer; value: Buffer; mod_revision: string } | undefined): Promise<KeyState | undefined> {
    if (!kv) return undefined;
    const { obj, stale, data } = await this.read(kv);
    return { obj, modRevision: kv.mod_revision, stale, data };
  }

  /**
   * Where an update or delete starts: the watch cache's copy when there is one (not
   * verified: only a write that lands proves it current), otherwise etcd's state.
   */
  private startingState(k: Buffer, cached: KubeObject | undefined): StartingState | Promise<StartingState> {
    const rv = cached?.metadata.resourceVersion;
    if (cached && rv) return { state: { obj: cached, modRevision: rv }, verified: false };
    return this.readKv(k).then(async (kv) => ({ state: await this.stateOf(kv), verified: true }));
  }

  private async updateUntimed(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound: boolean, opts: WriteOptions): Promise<{ object: KubeObject; created: boolean }> {
    const k = Buffer.from(key);
    // The state tried: etcd's (verified) or the watch cache's (possibly stale: then only
    // a write that lands proves it, and anything else is tried again from etcd).
    const start = this.startingState(k, opts.cachedExisting);
    let { state, verified } = start instanceof Promise ? await start : start;
    const refresh = async () => {
      state = await this.stateOf(await this.readKv(k));
      verified = true;
    };
    for (let attempt = 0; attempt < maxUpdateRetries; attempt++) {
      let existing: KubeObject;
      let updated: KubeObject | null;
      try {
        if (!state) {
          if (!ignoreNotFound) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
          existing = { metadata: {} };
        } else {
          existing = state.obj;
          checkPreconditions(key, existing, preconditions);
        }
        updated = await tryUpdate(deepCopy(existing));
      } catch (err) {
        if (verified) throw err;
        await refresh();
        continue;
      }
      if (updated === null) {
        // "No change" against a cached object may only mean the cache is behind.
        if (!verified) { await refresh(); continue; }
        if (!state) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
        // Bytes under an old key are rewritten even unchanged (upstream's stale read), so
        // rewriting every object moves it to the provider that writes now.
        if (!state.stale) return { object: existing, created: false };
        updated = existing;
      }
      const current = state;
      const bytes = encodeForStorage(updated, this.mediaType);
      // As upstream's GuaranteedUpdate: an update that encodes to the bytes stored is no
      // write (an empty map the encoding drops, say). The cache's copy has no bytes; one
      // that encodes the same is checked against etcd's.
      if (current && !current.stale && (current.data ? current.data.equals(bytes) : encodesTo(current.obj, bytes, updated, this.mediaType))) {
        if (!verified) { await refresh(); continue; }
        return { object: current.obj, created: false };
      }
      const put = this.putOf(k, bytes, opts);
      const { value, lease } = put instanceof Promise ? await put : put;
      const compare = current
        ? { key: k, target: 'Mod' as const, result: 'Equal' as const, mod_revision: current.modRevision }
        : { key: k, target: 'Create' as const, result: 'Equal' as const, create_revision: 0 };
      const res = await this.client.kv.txn({
        compare: [compare],
        success: [{ request_put: { key: k, value, lease } }],
        failure: [{ request_range: { key: k } }],
      });
      if (res.succeeded) return { object: withRevision(updated, res.header.revision), created: !current };
      const kv = res.responses[0]?.response_range?.kvs?.[0];
      state = await this.stateOf(kv);
      verified = true;
    }
    throw new StorageError('ResourceVersionConflict', key, `too many conflicts updating ${key}`);
  }

  async delete(key: string, preconditions?: Preconditions,
    validateDeletion?: (current: KubeObject) => Promise<void>, cachedExisting?: KubeObject): Promise<KubeObject> {
    return this.timed('delete', key, () => this.deleteUntimed(key, preconditions, validateDeletion, cachedExisting));
  }

  private async deleteUntimed(key: string, preconditions?: Preconditions,
    validateDeletion?: (current: KubeObject) => Promise<void>, cachedExisting?: KubeObject): Promise<KubeObject> {
    const k = Buffer.from(key);
    // As in updates: a cached copy saves the read; only etcd's state can fail the delete
    // for good, so a check that fails on the copy is tried again on etcd's state.
    const start = this.startingState(k, cachedExisting);
    let { state, verified } = start instanceof Promise ? await start : start;
    // The cache's copy is shared; the checks and the caller may change what they get.
    if (!verified && state) state = { ...state, obj: deepCopy(state.obj) };
    for (let attempt = 0; attempt < maxUpdateRetries; attempt++) {
      if (!state) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
      const existing = state.obj;
      try {
        checkPreconditions(key, existing, preconditions);
        if (validateDeletion) await validateDeletion(existing);
      } catch (err) {
        if (verified) throw err;
        state = await this.stateOf(await this.readKv(k));
        verified = true;
        continue;
      }
      const res = await this.client.kv.txn({
        compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: state.modRevision }],
        success: [{ request_delete_range: { key: k } }],
        failure: [{ request_range: { key: k } }],
      });
      if (res.succeeded) return existing;
      const kv = res.responses[0]?.response_range?.kvs?.[0];
      state = await this.stateOf(kv);
      verified = true;
    }
    throw new StorageError('ResourceVersionConflict', key, `too many conflicts deleting ${key}`);
  }

  watch(key: string, opts: WatchOptions): Promise<WatchStream> {
    return startWatch(this, key, opts);
  }

  async count(prefix: string): Promise<number> {
    const p = Buffer.from(prefix.endsWith('/') ? prefix : `${prefix}/`);
    const res = await this.timed('count', prefix, () => this.range({ key: p, range_end: prefixEnd(p), count_only: true }));
    return Number(res.count);
  }

  /** Whether etcd compacted away the history after `revision` (a watch from it would get 410). */
  historyCompacted(revision: number): Promise<boolean> { return this.revisions.historyCompacted(revision); }

  currentRevision(): Promise<string> { return this.revisions.current(); }

  private async readKv(k: Buffer): Promise<IKeyValue | undefined> {
    const res = await this.range({ key: k });
    return res.kvs[0];
  }
}

function withRevision(obj: KubeObject, rev: string): KubeObject {
  return { ...obj, metadata: withProperty(obj.metadata, 'resourceVersion', String(rev)) };
}

function checkPreconditions(key: string, obj: KubeObject, p?: Preconditions): void {
  if (!p) return;
  if (p.uid && p.uid !== obj.metadata.uid) {
    throw new StorageError('ResourceVersionConflict', key,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  }
  if (p.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw new StorageError('ResourceVersionConflict', key,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}
