// One object for every equal flat record. A watch keeps a few small records for its life
// (its metric labels, its negotiated media): a replica holds about 11,000 watches at 1,000
// nodes over a few dozen distinct ones, and every major GC marks each copy again.

/** Records kept at most per table: their number is bounded by routes and clients, but not by construction. */
const sharedRecordsMax = 4096;

/**
 * The record of `table` equal to `rec` (same keys in the same order, values equal as
 * strings), or `rec` itself, frozen and remembered. A full table is forgotten: the records
 * handed out stay valid, only no longer shared. For records of primitives only.
 */
export function sharedRecord<T extends object>(table: Map<string, T>, rec: T): T {
  let key = '';
  for (const k in rec) key += `${k}\u0001${String(rec[k])}\u0000`;
  const seen = table.get(key);
  if (seen) return seen;
  if (table.size >= sharedRecordsMax) table.clear();
  table.set(key, Object.freeze(rec));
  return rec;
}
