import { posix } from 'node:path';

/** The first key after every key with this prefix (etcd range_end for a prefix). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  // A prefix of 0xff bytes only has no end: etcd reads range_end "\0" as "every key from key on".
  return Buffer.from([0]);
}

/**
 * The key upstream's etcd health checks read (healthz, readyz, componentstatuses), as Go's
 * path.Join("/", prefix, "health") makes it: inside --etcd-prefix, so an etcd user confined
 * to the prefix may read it. It holds no object (no resource is named "health").
 */
export function healthKey(etcdPrefix: string): string {
  return posix.join('/', etcdPrefix, 'health');
}
