// Leases for objects that expire (events, --event-ttl). Granting one lease per write
// would cost a round trip and an etcd lease each; as upstream's lease manager does, a
// lease is reused for writes within a short window and granted that much longer, so
// every object lives at least its TTL and at most TTL plus the window.
import type { Etcd3 } from 'etcd3';

/** Reuse a lease for up to 5% of the TTL, and never more than --lease-reuse-duration-seconds. */
const reuseFraction = 0.05;

interface Held { id: string; ttl: number; until: number }

export class LeaseManager {
  private held = new Map<number, Held>();
  private pending = new Map<number, Promise<Held>>();

  constructor(private readonly client: Etcd3, private readonly maxReuseSeconds = 60, private readonly now: () => number = Date.now) {}

  /** A lease ID under which a key lives at least `ttlSeconds`. */
  async leaseFor(ttlSeconds: number): Promise<string> {
    const h = this.held.get(ttlSeconds);
    if (h && this.now() < h.until) return h.id;
    let p = this.pending.get(ttlSeconds);
    if (!p) {
      p = this.grant(ttlSeconds).finally(() => this.pending.delete(ttlSeconds));
      this.pending.set(ttlSeconds, p);
    }
    return (await p).id;
  }

  private async grant(ttlSeconds: number): Promise<Held> {
    const window = Math.min(this.maxReuseSeconds, Math.floor(ttlSeconds * reuseFraction));
    const res = await this.client.leaseClient.leaseGrant({ TTL: ttlSeconds + window });
    const held = { id: String(res.ID), ttl: ttlSeconds, until: this.now() + window * 1000 };
    this.held.set(ttlSeconds, held);
    return held;
  }
}
