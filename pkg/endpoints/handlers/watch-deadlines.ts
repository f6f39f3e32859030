// The timers of every watch a replica serves, as one. Each watch has a next moment (its
// periodic bookmark, or its timeout's end): they are kept in a min-heap and one Node timer
// is armed for the earliest, where each watch held a Timeout for its end and another for its
// bookmarks (with their callbacks) all its life. At 1,000 nodes a replica serves about
// 11,000 watches, and each of their objects is marked again by every major GC. Adding,
// moving and removing a watch is O(log n) and allocates nothing.

/**
 * What the heap orders: a moment (performance.now() ms: monotonic, so a step of the wall clock
 * neither ends every watch at once nor holds their bookmarks back) and where the entry is in
 * the heap (-1: not in it).
 */
export interface Timed {
  due: number;
  heapIndex: number;
  /** Called once `due` has come; may add itself again with a later `due`. */
  fire(now: number): void;
}

export class Deadlines {
  private readonly heap: Timed[] = [];
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  /** Adds `t` at its `due` (or moves it there if it is in the heap already). */
  add(t: Timed): void {
    if (t.heapIndex >= 0) { this.fix(t.heapIndex); } else {
      t.heapIndex = this.heap.length;
      this.heap.push(t);
      this.up(t.heapIndex);
    }
    this.arm();
  }

  remove(t: Timed): void {
    const i = t.heapIndex;
    if (i < 0) return;
    const last = this.heap.pop()!;
    t.heapIndex = -1;
    if (last !== t) {
      this.heap[i] = last;
      last.heapIndex = i;
      this.fix(i);
    }
    // Left armed: a timer with nothing due finds nothing and re-arms for what is next.
  }

  get size(): number { return this.heap.length; }

  private fix(i: number): void {
    if (i > 0 && this.heap[i]!.due < this.heap[(i - 1) >> 1]!.due) this.up(i);
    else this.down(i);
  }

  private up(i: number): void {
    const h = this.heap;
    const t = h[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.due <= t.due) break;
      h[i] = h[p]!;
      h[i]!.heapIndex = i;
      i = p;
    }
    h[i] = t;
    t.heapIndex = i;
  }

  private down(i: number): void {
    const h = this.heap;
    const t = h[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= h.length) break;
      if (c + 1 < h.length && h[c + 1]!.due < h[c]!.due) c++;
      if (t.due <= h[c]!.due) break;
      h[i] = h[c]!;
      h[i]!.heapIndex = i;
      i = c;
    }
    h[i] = t;
    t.heapIndex = i;
  }

  private arm(): void {
    const next = this.heap[0]?.due ?? Infinity;
    if (next >= this.armedFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = next;
    // Unref'd: a watch keeps the process up through its connection, not its timers.
    this.timer = setTimeout(() => this.run(), Math.max(0, next - performance.now())).unref();
  }

  private run(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = performance.now();
    // Each entry due is taken out before it fires, so one that adds itself again later is not met twice.
    while (this.heap.length > 0 && this.heap[0]!.due <= now) {
      const t = this.heap[0]!;
      this.remove(t);
      t.fire(now);
    }
    this.arm();
  }
}
