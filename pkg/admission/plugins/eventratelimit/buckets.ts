// Token buckets (client-go's token-bucket rate limiter: starts full, refills at qps up
// to burst, TryAccept never waits) and the least-recently-used cache that bounds how
// many of them a keyed limit keeps.

export type Clock = () => number;

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly qps: number, private readonly burst: number, private readonly now: Clock) {
    this.tokens = burst;
    this.last = now();
  }

  tryAccept(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** A Map keeps insertion order: re-inserting on use makes the first key the least recent. */
export class LRUCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly size: number, private readonly make: () => V) {}

  get(key: string): V {
    let v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
    } else {
      v = this.make();
      if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, v);
    return v;
  }

  get length(): number {
    return this.entries.size;
  }
}
