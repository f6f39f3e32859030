// Storage on etcd v3. Every write is one transaction guarded by a revision compare;
// the object's mod_revision is its resourceVersion and a list's header revision is the
// list's resourceVersion. Lists read one revision, so paginated lists are snapshots.
import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse } from 'etcd3';
import type { KubeObject } from '../../runtime/object.js';
import {
  StorageError, type GetOptions, type ListOptions, type ListResult, type Preconditions,
  type Storage, type TryUpdate, type WatchOptions, type WatchStream,
} from '../interfaces.js';
import { decodeFromStorage, encodeForStorage } from './codec.js';
import { decodeContinue, encodeContinue } from './continue.js';
import { prefixEnd } from './keys.js';
import { startWatch } from './watch.js';

const maxUpdateRetries = 64;

export class EtcdStorage implements Storage {
  constructor(readonly client: Etcd3) {}

  private async range(req: IRangeRequest): Promise<IRangeResponse> {
    try {
      return await this.client.kv.range(req);
    } catch (err) {
      throw translateEtcdError(err, req.key?.toString() ?? '');
    }
  }

  async create(key: string, obj: KubeObject): Promise<KubeObject> {
    const k = Buffer.from(key);
    const res = await this.client.kv.txn({
      compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
      success: [{ request_put: { key: k, value: encodeForStorage(obj) } }],
      failure: [],
    });
    if (!res.succeeded) throw new StorageError('KeyExists', key, `key exists: ${key}`);
    return withRevision(obj, res.header.revision);
  }

  async get(key: string, opts: GetOptions = {}): Promise<KubeObject> {
    const res = await this.range({ key: Buffer.from(key) });
    await this.ensureFreshEnough(res.header.revision, opts.resourceVersion, key);
    const kv = res.kvs[0];
    if (!kv) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return decodeFromStorage(kv.value, kv.mod_revision);
  }

  /** A read asking for a version newer than etcd has seen waits briefly, then times out. */
  private async ensureFreshEnough(headerRev: string, wanted: string | undefined, key: string): Promise<void> {
    if (!wanted || wanted === '0') return;
    const want = Number(wanted);
    if (!Number.isFinite(want) || want <= Number(headerRev)) return;
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      if (Number(await this.currentRevision()) >= want) return;
    }
    throw new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${want}, current: ${headerRev}`);
  }

  async list(prefix: string, opts: ListOptions): Promise<ListResult> {
    const keyPrefix = Buffer.from(prefix.endsWith('/') ? prefix : `${prefix}/`);
    const rangeEnd = prefixEnd(keyPrefix);
    let startKey = keyPrefix;
    let revision = 0;
    if (opts.continue) {
      const tok = decodeContinue(opts.continue, prefix);
      startKey = Buffer.concat([keyPrefix, Buffer.from(tok.start)]);
      revision = tok.rv;
    } else if (opts.resourceVersion && opts.resourceVersion !== '0') {
      const rv = Number(opts.resourceVersion);
      const exact = opts.resourceVersionMatch === 'Exact' || (!opts.resourceVersionMatch && (opts.limit ?? 0) > 0);
      if (exact) revision = rv;
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const predicate = opts.predicate ?? (() => true);
    const items: KubeObject[] = [];
    let readRevision = revision;
    let more = false;
    let lastKey: Buffer | undefined;
    let remaining: number | undefined;
    // With a filter, keep reading pages until limit matches are found or the range ends,
    // so a page never comes back empty while a continue token says there is more.
    let pageSize = limit > 0 ? limit : 0;
    for (;;) {
      const res = await this.range({ key: startKey, range_end: rangeEnd, revision: readRevision, limit: pageSize });
      if (readRevision === 0) {
        readRevision = Number(res.header.revision);
        if (!opts.continue) {
          await this.ensureFreshEnough(res.header.revision, opts.resourceVersionMatch === 'Exact' ? undefined : opts.resourceVersion, prefix);
        }
      }
      let stoppedAt = -1;
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i];
        lastKey = kv.key;
        const obj = decodeFromStorage(kv.value, kv.mod_revision);
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
      pageSize = Math.min(Math.max(pageSize * 2, 1), 10000);
    }
    const result: ListResult = { items, resourceVersion: String(readRevision) };
    if (more && lastKey) {
      const next = Buffer.concat([lastKey, Buffer.from([0])]).subarray(keyPrefix.length).toString('utf8');
      result.continue = encodeContinue(readRevision, next);
      if (remaining !== undefined && remaining > 0) result.remainingItemCount = remaining;
    }
    return result;
  }

  async guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound = false): Promise<{ object: KubeObject; created: boolean }> {
    const k = Buffer.from(key);
    let current = await this.readKv(k);
    for (let attempt = 0; attempt < maxUpdateRetries; attempt++) {
      let existing: KubeObject;
      if (!current) {
        if (!ignoreNotFound) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
        existing = { metadata: {} };
      } else {
        existing = decodeFromStorage(current.value, current.mod_revision);
        checkPreconditions(key, existing, preconditions);
      }
      const updated = await tryUpdate(structuredClone(existing));
      if (updated === null) {
        if (!current) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
        return { object: existing, created: false };
      }
      const compare = current
        ? { key: k, target: 'Mod' as const, result: 'Equal' as const, mod_revision: current.mod_revision }
        : { key: k, target: 'Create' as const, result: 'Equal' as const, create_revision: 0 };
      const res = await this.client.kv.txn({
        compare: [compare],
        success: [{ request_put: { key: k, value: encodeForStorage(updated) } }],
        failure: [{ request_range: { key: k } }],
      });
      if (res.succeeded) return { object: withRevision(updated, res.header.revision), created: !current };
      current = res.responses[0]?.response_range?.kvs?.[0];
    }
    throw new StorageError('ResourceVersionConflict', key, `too many conflicts updating ${key}`);
  }

  async delete(key: string, preconditions?: Preconditions,
    validateDeletion?: (current: KubeObject) => Promise<void>): Promise<KubeObject> {
    const k = Buffer.from(key);
    let current = await this.readKv(k);
    for (let attempt = 0; attempt < maxUpdateRetries; attempt++) {
      if (!current) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
      const existing = decodeFromStorage(current.value, current.mod_revision);
      checkPreconditions(key, existing, preconditions);
      if (validateDeletion) await validateDeletion(existing);
      const res = await this.client.kv.txn({
        compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: current.mod_revision }],
        success: [{ request_delete_range: { key: k } }],
        failure: [{ request_range: { key: k } }],
      });
      if (res.succeeded) return existing;
      current = res.responses[0]?.response_range?.kvs?.[0];
    }
    throw new StorageError('ResourceVersionConflict', key, `too many conflicts deleting ${key}`);
  }

  watch(key: string, opts: WatchOptions): Promise<WatchStream> {
    return startWatch(this, key, opts);
  }

  async count(prefix: string): Promise<number> {
    const p = Buffer.from(prefix.endsWith('/') ? prefix : `${prefix}/`);
    const res = await this.range({ key: p, range_end: prefixEnd(p), count_only: true });
    return Number(res.count);
  }

  async currentRevision(): Promise<string> {
    // A range over an empty key returns just the header: the cheapest linearizable read.
    const res = await this.range({ key: Buffer.from([0]), limit: 1 });
    return res.header.revision;
  }

  private async readKv(k: Buffer): Promise<IKeyValue | undefined> {
    const res = await this.range({ key: k });
    return res.kvs[0];
  }
}

function withRevision(obj: KubeObject, rev: string): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rev) } };
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

export function translateEtcdError(err: unknown, key: string): Error {
  const msg = err instanceof Error ? err.message : String(err);
  if (msg.includes('required revision has been compacted')) {
    return new StorageError('ResourceVersionGone', key, 'The resourceVersion for the provided list is too old.');
  }
  if (msg.includes('required revision is a future revision')) {
    return new StorageError('TooLargeResourceVersion', key, 'Too large resource version');
  }
  if (msg.includes('UNAVAILABLE') || msg.includes('ECONNREFUSED') || msg.includes('No connections available')) {
    return new StorageError('Unreachable', key, `etcd unreachable: ${msg}`);
  }
  return err instanceof Error ? err : new Error(msg);
}
