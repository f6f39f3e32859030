// Whether a watch cache holds etcd's present: one read-only etcd transaction over the
// resource's key range (the revision, how many keys, and the newest modification),
// cheap because it returns at most one key and no values. etcd 3.4 has no watch
// progress requests, so this stands in for them.
import type { Etcd3 } from 'etcd3';
import { SortOrder, SortTarget, type IResponseOp } from 'etcd3/lib/rpc.js';
import { prefixEnd } from '../etcd/keys.js';

export interface RangeProbe {
  /** etcd's revision when the probe ran. */
  revision: number;
  /** Keys in the range at that revision. */
  count: number;
  /** The newest mod revision in the range (0 when it is empty). */
  maxModRevision: number;
}

/** The two reads of a range that give its key count and its newest modification. */
function countAndNewest(key: Buffer, range_end: Buffer) {
  return [
    { request_range: { key, range_end, count_only: true } },
    { request_range: { key, range_end, keys_only: true, limit: 1, sort_order: SortOrder.Descend, sort_target: SortTarget.Mod } },
  ];
}

const countOf = (op: IResponseOp | undefined): number => Number(op?.response_range?.count ?? 0);
const newestOf = (op: IResponseOp | undefined): number => Number(op?.response_range?.kvs?.[0]?.mod_revision ?? 0);

export async function probeRange(client: Etcd3, root: string): Promise<RangeProbe> {
  const key = Buffer.from(root);
  const res = await client.kv.txn({ compare: [], success: countAndNewest(key, prefixEnd(key)), failure: [] });
  return { revision: Number(res.header.revision), count: countOf(res.responses[0]), maxModRevision: newestOf(res.responses[1]) };
}

export interface PageProbe extends RangeProbe {
  /** Keys under the listed prefix at that revision (count: those in the page's range). */
  listed: number;
}

/**
 * probeRange for a first page: the count and newest modification of the range the page
 * read (`prefix` up to `pageEnd`, exclusive; the whole prefix when undefined), beside the
 * listed prefix's count for remainingItemCount. etcd 3.4 reads every value of a sorted
 * range, so this reads about the page's values, as upstream's first page (a range of
 * `limit` keys) does, where probeRange reads every value of the resource.
 */
export async function probePage(client: Etcd3, prefix: string, pageEnd: string | undefined): Promise<PageProbe> {
  const key = Buffer.from(prefix);
  const listEnd = prefixEnd(key);
  // A page that reached the prefix's end read the whole listed range: its count is the listed one.
  const whole = pageEnd === undefined;
  const success = countAndNewest(key, whole ? listEnd : Buffer.from(pageEnd));
  if (!whole) success.push({ request_range: { key, range_end: listEnd, count_only: true } });
  const res = await client.kv.txn({ compare: [], success, failure: [] });
  const count = countOf(res.responses[0]);
  return { revision: Number(res.header.revision), count, maxModRevision: newestOf(res.responses[1]), listed: whole ? count : countOf(res.responses[2]) };
}
