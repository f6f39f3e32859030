// An unbounded push/pull queue exposed as an async iterator: producers push, one
// consumer awaits. close() ends iteration after the buffered items drain. A consumer
// that handles each item at once may listen() instead: no promise per item.
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private waiters: Array<(r: IteratorResult<T>) => void> = [];
  private closed = false;
  private listener?: { onItem: (item: T) => void; onEnd: () => void; ended: boolean };

  push(item: T): void {
    if (this.closed) return;
    if (this.listener) { this.listener.onItem(item); return; }
    const w = this.waiters.shift();
    if (w) w({ value: item, done: false });
    else this.items.push(item);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
    if (this.listener) this.end(this.listener);
  }

  /**
   * Hands every item to `onItem` as it is pushed, in the pusher's call (the buffered ones
   * first, now), and calls `onEnd` once after the last, when the queue is closed. Instead
   * of iterating: the queue has one consumer.
   */
  listen(onItem: (item: T) => void, onEnd: () => void): void {
    const listener = { onItem, onEnd, ended: false };
    // By index: an item pushed meanwhile (by onItem itself) is appended and handed over too.
    for (let i = 0; i < this.items.length; i++) onItem(this.items[i]!);
    this.items = [];
    this.listener = listener;
    if (this.closed) this.end(listener);
  }

  private end(l: { onEnd: () => void; ended: boolean }): void {
    if (l.ended) return;
    l.ended = true;
    l.onEnd();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Items waiting: none once listened to (each is handed over as it is pushed; the array is not read then). */
  get size(): number {
    return this.listener ? 0 : this.items.length;
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next(), return: async () => { this.close(); return { value: undefined, done: true }; } };
  }
}
