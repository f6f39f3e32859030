// What a store asks etcd about revisions alone: the present one, and whether the history
// after one is compacted. Both are a range of one key no object has, which etcd answers
// with its header; the key is inside --etcd-prefix, since an etcd user confined to the
// prefix (etcd auth, a role on the prefix's range) is refused any other.
import type { Etcd3 } from 'etcd3';
import { StorageError } from '../interfaces.js';
import { translateEtcdError } from './boundary.js';
import { askRevisionKept } from './compaction-question.js';
import { healthKey } from './keys.js';

/** --etcd-prefix's default. */
const defaultEtcdPrefix = '/registry';

export class RevisionQuestions {
  private readonly key: string;

  /**
   * `rawClient`: etcd3's own client, whose pool the compaction question goes through;
   * `client`: the guarded one (failures translated at the boundary). `key`: the server's is
   * upstream's health key (healthKey), which every cluster (--etcd-servers-overrides too)
   * lets the apiserver read; default: that of "/registry".
   */
  constructor(private readonly rawClient: Etcd3, private readonly client: Etcd3, key?: string) {
    this.key = key ?? healthKey(defaultEtcdPrefix);
  }

  /** Whether etcd compacted away the history after `revision` (a watch from it would get 410). */
  async historyCompacted(revision: number): Promise<boolean> {
    try {
      await askRevisionKept(this.rawClient, this.key, revision + 1);
      return false;
    } catch (cause) {
      const err = translateEtcdError(cause, '', false);
      if (err instanceof StorageError && err.code === 'ResourceVersionGone') return true;
      // A revision etcd has not reached yet is not compacted.
      if (err instanceof StorageError && err.code === 'TooLargeResourceVersion') return false;
      throw err;
    }
  }

  /** etcd's revision now: a range of a key no object has returns just the header, the cheapest linearizable read. */
  async current(): Promise<string> {
    const res = await this.client.kv.range({ key: Buffer.from(this.key), limit: 1, keys_only: true });
    return res.header.revision;
  }
}
