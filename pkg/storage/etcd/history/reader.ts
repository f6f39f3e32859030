// One key's past from etcd's MVCC: every version etcd still keeps (it keeps all of them
// until compaction), oldest first, and the deletion that ended the key's latest life.
// Reads only, through the storage layer's guarded client and its value transformer
// (encryption at rest), so an etcd failure leaves as a StorageError like any other read
// and an encrypted value is decrypted as the store decrypts it. A version is found from the next one: the key's
// value at (mod revision - 1) is the version before, until its create revision.
import type { Etcd3, IKeyValue } from 'etcd3';
import type { KubeObject } from '../../../runtime/object.js';
import { StorageError } from '../../interfaces.js';
import type { ValueTransformer } from '../../value/encryption-at-rest.js';
import { decodeStored } from '../stored-value.js';

/** What the history is read through: the etcd store's client and transformer. */
export interface HistorySource {
  client: Etcd3;
  transformer?: ValueTransformer;
}

export interface KeyVersion {
  revision: number;
  /** The object as stored at this revision; absent for the deletion. */
  object?: KubeObject;
}

export interface KeyHistory {
  /** etcd's revision when the history was read. */
  currentRevision: number;
  /** The oldest revision etcd can still read (0: never compacted): nothing before it is known. */
  compactedRevision: number;
  /** Oldest first; a deletion, when the key is gone, last. */
  versions: KeyVersion[];
  /** Older versions of this life existed but were compacted away (or exceed the limit). */
  truncated: boolean;
}

const isGone = (err: unknown): boolean => err instanceof StorageError && err.code === 'ResourceVersionGone';

class KeyReader {
  constructor(private readonly client: Etcd3, private readonly key: string) {}

  /** The key's value at a revision (undefined: absent then); throws a StorageError when compacted. */
  async at(revision: number): Promise<IKeyValue | undefined> {
    const res = await this.client.kv.range({ key: Buffer.from(this.key), revision: String(revision) });
    return res.kvs[0];
  }

  async readable(revision: number): Promise<boolean> {
    try {
      await this.client.kv.range({ key: Buffer.from(this.key), revision: String(revision), count_only: true });
      return true;
    } catch (err) {
      if (isGone(err)) return false;
      throw err;
    }
  }

  /** The oldest readable revision: a binary search over revisions (a compacted read fails). */
  async oldestReadable(head: number): Promise<number> {
    if (await this.readable(1)) return 1;
    let lo = 1; let hi = head; // lo unreadable, hi readable
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.readable(mid)) hi = mid; else lo = mid;
    }
    return hi;
  }

  /**
   * The key's value in its latest life, and the revision that deleted it, for a key
   * absent at `head`: galloping back from head to a revision where it exists, then a
   * binary search for the end of that life (same create revision), which is monotonic.
   * A life shorter than the gap between two probes that began and ended after the one
   * found would be missed: the gaps double going back, so only old deletions are at risk.
   */
  async lastAlive(head: number, oldest: number): Promise<{ kv: IKeyValue; deletedAt: number } | undefined> {
    let absent = head;
    let step = 1;
    let found: IKeyValue | undefined;
    let foundAt = 0;
    for (;;) {
      const r = Math.max(oldest, head - step);
      const kv = await this.at(r);
      if (kv) { found = kv; foundAt = r; break; }
      absent = r;
      if (r === oldest) return undefined;
      step *= 2;
    }
    let lo = foundAt; let hi = absent; // alive (this life) at lo, not at hi
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const kv = await this.at(mid);
      if (kv && kv.create_revision === found.create_revision) { lo = mid; found = kv; } else hi = mid;
    }
    return { kv: found, deletedAt: hi };
  }
}

/** Reads the history of one etcd key (an object's storage key). */
export async function readKeyHistory(source: HistorySource, key: string, maxVersions = 1000): Promise<KeyHistory> {
  const { client } = source;
  const reader = new KeyReader(client, key);
  const head = await client.kv.range({ key: Buffer.from(key) });
  const currentRevision = Number(head.header.revision);
  const oldest = await reader.oldestReadable(currentRevision);
  const out: KeyHistory = { currentRevision, compactedRevision: oldest > 1 ? oldest : 0, versions: [], truncated: false };
  let kv = head.kvs[0];
  let deletedAt: number | undefined;
  if (!kv) {
    const last = await reader.lastAlive(currentRevision, oldest);
    if (!last) return out;
    kv = last.kv;
    deletedAt = last.deletedAt;
  }
  const versions: KeyVersion[] = [];
  for (let cur: IKeyValue | undefined = kv; cur;) {
    const revision = Number(cur.mod_revision);
    versions.push({ revision, object: await decodeStored(source.transformer, cur, cur.mod_revision) });
    if (Number(cur.version) <= 1) break;
    if (versions.length >= maxVersions || revision - 1 < oldest) { out.truncated = true; break; }
    try {
      cur = await reader.at(revision - 1);
    } catch (err) {
      if (!isGone(err)) throw err;
      out.truncated = true;
      break;
    }
  }
  out.versions = versions.reverse();
  if (deletedAt !== undefined) out.versions.push({ revision: deletedAt });
  return out;
}
