// Each replica's claim to be serving: /registry/masterleases/<ip>, an Endpoints object
// naming the address, under an etcd lease of the reconciler TTL that the replica renews
// every interval (upstream's storageLeases). A replica that dies stops renewing and its
// key expires with the lease; one that stops cleanly deletes its key.
import type { Etcd3 } from 'etcd3';
import { encodeForStorage, decodeFromStorage, type StorageMediaType } from '../../storage/etcd/codec.js';
import { prefixEnd } from '../../storage/etcd/keys.js';
import { isPlainObject } from '../../runtime/object.js';

export class MasterLeases {
  private readonly prefix: string;
  /** The lease our key was last put under; revoked once a newer one holds the key. */
  private lastLease: string | undefined;

  constructor(private readonly client: Etcd3, etcdPrefix: string, private readonly ttlSeconds: number,
    private readonly mediaType: StorageMediaType) {
    this.prefix = `${etcdPrefix}/masterleases/`;
  }

  async update(ip: string): Promise<void> {
    const { ID } = await this.client.leaseClient.leaseGrant({ TTL: this.ttlSeconds });
    const value = encodeForStorage({
      apiVersion: 'v1', kind: 'Endpoints', metadata: { name: ip },
      subsets: [{ addresses: [{ ip }] }],
    }, this.mediaType);
    await this.client.kv.put({ key: Buffer.from(this.prefix + ip), value, lease: ID });
    const previous = this.lastLease;
    this.lastLease = String(ID);
    if (previous) await this.client.leaseClient.leaseRevoke({ ID: previous }).catch(() => undefined);
  }

  /** Addresses with a live key, in key order. */
  async list(): Promise<string[]> {
    const start = Buffer.from(this.prefix);
    const res = await this.client.kv.range({ key: start, range_end: prefixEnd(start) });
    const ips: string[] = [];
    for (const kv of res.kvs) {
      try {
        const obj = decodeFromStorage(kv.value, kv.mod_revision);
        const ss = Array.isArray(obj.subsets) ? obj.subsets[0] : undefined;
        const addr = isPlainObject(ss) && Array.isArray(ss.addresses) ? ss.addresses[0] : undefined;
        const ip = isPlainObject(addr) && typeof addr.ip === 'string' ? addr.ip : '';
        if (ip) ips.push(ip);
      } catch {
        // An unreadable lease names nobody; it expires on its own.
      }
    }
    return ips;
  }

  /** Whether there was a key to delete. */
  async remove(ip: string): Promise<boolean> {
    const res = await this.client.kv.deleteRange({ key: Buffer.from(this.prefix + ip) });
    if (this.lastLease) await this.client.leaseClient.leaseRevoke({ ID: this.lastLease }).catch(() => undefined);
    this.lastLease = undefined;
    return Number(res.deleted) > 0;
  }
}
