// etcd3 reads every 64-bit field of every etcd response (a header's cluster_id, member_id,
// revision and raft_term; each watch event's and Txn's revisions) as a string, through
// protobufjs's generated toObject and Long's base-10 toString, whose emulated division
// costs 0.15-0.25 us a value warm and tens of microseconds cold: about 3% of a replica's
// CPU per write (the write's Txn answer and its watch event). The single-file build's
// prebuilt codecs call `longToString` instead (hack/bundle-etcd-codecs.ts); a start from
// dist (tests, benchmarks) replaces Long's base-10 toString with it, so both builds do
// the same conversion. Below 2^53 a double is exact; above, BigInt.
import { createRequire } from 'node:module';

interface LongValue { high: number; low: number; unsigned: boolean }

/** What Long's toString() gives, without its division. Self-contained: the bundle embeds its source. */
export function longToString(l: LongValue): string {
  const hi = l.high;
  const lo = l.low >>> 0;
  if (hi >= 0 && hi < 0x200000) return String(hi * 4294967296 + lo);
  const v = (BigInt(hi >>> 0) << BigInt(32)) | BigInt(lo);
  return (l.unsigned ? v : BigInt.asIntN(64, v)).toString();
}

type ToString = (this: LongValue, radix?: number) => string;
let installed = false;

/**
 * Replaces the base-10 toString of the Long class etcd3's protobufjs decodes with (other
 * radixes keep Long's own). Not in the single-file build (its modules' URL is the
 * bundle's .cjs), whose codecs do not call it, nor where that Long cannot be found.
 */
export function installFastLongToString(moduleURL = import.meta.url): void {
  if (installed || moduleURL.endsWith('.cjs')) return;
  let proto: { toString: ToString };
  try {
    const fromEtcd3 = createRequire(createRequire(moduleURL).resolve('etcd3/package.json'));
    const Long = createRequire(fromEtcd3.resolve('protobufjs'))('long') as { prototype: typeof proto };
    proto = Long.prototype;
  } catch {
    return;
  }
  installed = true;
  const stock = proto.toString;
  proto.toString = function toString(this: LongValue, radix?: number): string {
    return radix === undefined || radix === 10 ? longToString(this) : stock.call(this, radix);
  };
}
