// A watch cache's ring of recent events, sized by time as upstream's (v1.28 watch_cache.go):
// it starts at the lower bound and, when full, doubles (up to the upper bound) while its
// oldest event is younger than the fresh duration, so a resource that changes quickly keeps
// enough history for watchers to resume across a bookmark interval; it halves (down to the
// lower bound) once even its newest quarter is older than that, so a burst's history is
// not kept for ever. Resizing is only considered on a push into a full ring, as upstream.

/** How a ring is sized: upstream's constants unless a test narrows them. */
export interface RingSizing {
  lowerBound: number;
  upperBound: number;
  /** Events younger than this are worth keeping (upstream: eventFreshDuration). */
  freshMs: number;
  /** The clock events are stamped with. */
  now: () => number;
}

/** Upstream v1.28: defaultLowerBoundCapacity, defaultUpperBoundCapacity, eventFreshDuration. */
export const upstreamRingSizing: RingSizing = { lowerBound: 100, upperBound: 100 * 1024, freshMs: 75_000, now: Date.now };

export class EventRing<T extends { rev: number }> {
  private readonly sizing: RingSizing;
  // The events and the times they were pushed, side by side: a slot object per event, and
  // the heap number its time was, came to about 80,000 objects at 1,000 nodes, each marked
  // at every major GC.
  private slots: Array<T | undefined>;
  private times: Float64Array;
  private cap: number;
  /** Absolute positions: the ring holds [start, end), slot i at i % cap. */
  private start = 0;
  private end = 0;
  private dropped?: number;

  /** `onDrop`: told of each event pushed out (not of those a clear() forgets). */
  constructor(sizing: Partial<RingSizing> = {}, private readonly onDrop?: (item: T) => void) {
    this.sizing = { ...upstreamRingSizing, ...sizing };
    this.cap = this.sizing.lowerBound;
    this.slots = new Array<T | undefined>(this.cap);
    this.times = new Float64Array(this.cap);
  }

  get capacity(): number { return this.cap; }
  get size(): number { return this.end - this.start; }

  /** The oldest event held, if any. */
  get oldest(): T | undefined {
    return this.size > 0 ? this.slots[this.start % this.cap] : undefined;
  }

  /** The revision of the newest event pushed out since the ring was last cleared, if any. */
  get lastDropped(): number | undefined { return this.dropped; }

  /** Adds `item` as the newest event, pushing out the oldest when the ring is full. */
  push(item: T): void {
    const at = this.sizing.now();
    this.resize(at);
    if (this.size === this.cap) this.drop(1);
    this.slots[this.end % this.cap] = item;
    this.times[this.end % this.cap] = at;
    this.end++;
  }

  /** The events newer than revision `rev`, oldest first (found by binary search). */
  *after(rev: number): Generator<T> {
    let lo = this.start;
    let hi = this.end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.slots[mid % this.cap]!.rev > rev) hi = mid; else lo = mid + 1;
    }
    // A push during iteration may resize or wrap: read by absolute position, stop if overtaken.
    for (let i = lo; i < this.end; i++) {
      if (i < this.start) return;
      yield this.slots[i % this.cap]!;
    }
  }

  clear(): void {
    this.start = this.end;
    this.dropped = undefined;
    this.slots = new Array<T | undefined>(this.cap);
  }

  private drop(n: number): void {
    for (let i = 0; i < n; i++) {
      const item = this.slots[this.start % this.cap]!;
      this.dropped = item.rev;
      this.slots[this.start % this.cap] = undefined;
      this.onDrop?.(item);
      this.start++;
    }
  }

  private resize(now: number): void {
    if (this.size !== this.cap) return;
    const { lowerBound, upperBound, freshMs } = this.sizing;
    if (now - this.times[this.start % this.cap]! < freshMs) {
      if (this.cap < upperBound) this.reallocate(Math.min(this.cap * 2, upperBound));
      return;
    }
    const quarter = Math.floor(this.cap / 4);
    if (now - this.times[(this.end - quarter) % this.cap]! > freshMs && this.cap > lowerBound) {
      this.reallocate(Math.max(Math.floor(this.cap / 2), lowerBound));
    }
  }

  private reallocate(cap: number): void {
    // Shrinking keeps the newest `cap` events.
    if (cap < this.size) this.drop(this.size - cap);
    const slots = new Array<T | undefined>(cap);
    const times = new Float64Array(cap);
    for (let i = this.start; i < this.end; i++) {
      slots[i % cap] = this.slots[i % this.cap];
      times[i % cap] = this.times[i % this.cap]!;
    }
    this.slots = slots;
    this.times = times;
    this.cap = cap;
  }
}
