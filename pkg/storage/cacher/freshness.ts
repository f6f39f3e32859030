// Whether a watch cache holds etcd's present: one read-only etcd transaction over the
// resource's key range (the revision, how many keys, and the newest modification),
// cheap because it returns at most one key and no values. etcd 3.4 has no watch
// progress requests, so this stands in for them.
import type { Etcd3 } from 'etcd3';
import { SortOrder, SortTarget } from 'etcd3/lib/rpc.js';
import { prefixEnd } from '../etcd/keys.js';

export interface RangeProbe {
  /** etcd's revision when the probe ran. */
  revision: number;
  /** Keys in the range at that revision. */
  count: number;
  /** The newest mod revision in the range (0 when it is empty). */
  maxModRevision: number;
}

export async function probeRange(client: Etcd3, root: string): Promise<RangeProbe> {
  const key = Buffer.from(root);
  const range_end = prefixEnd(key);
  const res = await client.kv.txn({
    compare: [],
    success: [
      { request_range: { key, range_end, count_only: true } },
      { request_range: { key, range_end, keys_only: true, limit: 1, sort_order: SortOrder.Descend, sort_target: SortTarget.Mod } },
    ],
    failure: [],
  });
  const newest = res.responses[1]?.response_range?.kvs?.[0];
  return {
    revision: Number(res.header.revision),
    count: Number(res.responses[0]?.response_range?.count ?? 0),
    maxModRevision: newest ? Number(newest.mod_revision) : 0,
  };
}
