// Watch delivery lag: a write's send matched with the first sighting of its event at any
// watcher of this process, whichever of the two comes first (an event often reaches a
// watcher before the write's own reply does). Unmatched entries are forgotten after one
// to two windows: a write nobody here watches (a Lease renewal) has no sighting to wait
// for, and an event of a write this process did not make (a controller's) none to match.
// Without that, the one Map of each grew for the whole run (63,600 Lease writes at 1,000
// nodes), and a cap on sightings, once filled by the hundred kube-proxies' repeat
// sightings of one event, dropped the early sightings it was there for.

/** Two generations of a map: lookups see both, and every `windowMs` the older is dropped. */
class Generations<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();
  private turnedAt: number;

  constructor(private readonly windowMs: number, now: number) {
    this.turnedAt = now;
  }

  /** Drops what is older than two windows, at most once per window. */
  age(now: number): void {
    if (now - this.turnedAt < this.windowMs) return;
    // Past two windows at once: everything held is older than one.
    this.previous = now - this.turnedAt >= 2 * this.windowMs ? new Map() : this.current;
    this.current = new Map();
    this.turnedAt = now;
  }

  get(key: string): V | undefined {
    return this.current.get(key) ?? this.previous.get(key);
  }

  set(key: string, value: V): void {
    this.current.set(key, value);
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}

/** A write's entry once its first sighting was matched: later sightings of it are repeats. */
const matched = -1;

/**
 * `windowMs`: how long an unmatched write or sighting is kept at least (twice that at most);
 * a lag longer than it is not measured, so it is far above any lag worth reporting as such.
 */
export class WatchLag {
  readonly lags: number[] = [];
  private readonly sent: Generations<number>;
  private readonly early: Generations<number>;

  constructor(windowMs = 120_000, now = Date.now()) {
    this.sent = new Generations(windowMs, now);
    this.early = new Generations(windowMs, now);
  }

  /** A write of `key` (`<resource>/<namespace>/<name>@<revision>`) sent at `at`. */
  wrote(key: string, at: number): void {
    this.age(at);
    const seen = this.early.get(key);
    if (seen !== undefined && seen !== matched) { this.lags.push(seen - at); this.early.set(key, matched); return; }
    this.sent.set(key, at);
  }

  /** A watcher saw the event of `key` at `at`. */
  saw(key: string, at: number): void {
    this.age(at);
    const sentAt = this.sent.get(key);
    if (sentAt === matched) return;
    if (sentAt !== undefined) { this.lags.push(at - sentAt); this.sent.set(key, matched); return; }
    // Only the first sighting before the write's reply counts: the earliest delivery.
    if (this.early.get(key) === undefined) this.early.set(key, at);
  }

  /** Entries held (unmatched writes and sightings, and matched ones not yet aged out). */
  get held(): number {
    return this.sent.size + this.early.size;
  }

  private age(now: number): void {
    this.sent.age(now);
    this.early.age(now);
  }
}
