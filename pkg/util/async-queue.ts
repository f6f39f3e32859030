// An unbounded push/pull queue exposed as an async iterator: producers push, one
// consumer awaits. close() ends iteration after the buffered items drain. A consumer
// that handles each item at once may listen() instead: no promise per item.
// A watch cache holds one queue per watch for the watch's whole life (tens of thousands at
// 1,000 nodes, each marked again by every major GC), so a queue is one object until it is
// used: its arrays are made when first needed, and a listener is the consumer's own object.

/** Who is handed each item as it is pushed, and told once when the queue has ended. */
export interface Sink<T> {
  onItem(item: T): void;
  onEnd(): void;
}

export class AsyncQueue<T> implements AsyncIterable<T> {
  private items?: T[];
  private waiters?: Array<(r: IteratorResult<T>) => void>;
  private closed = false;
  private sink?: Sink<T>;
  private sinkEnded = false;

  push(item: T): void {
    if (this.closed) return;
    if (this.sink) { this.sink.onItem(item); return; }
    const w = this.waiters?.shift();
    if (w) w({ value: item, done: false });
    else (this.items ??= []).push(item);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const waiters = this.waiters;
    this.waiters = undefined;
    for (const w of waiters ?? []) w({ value: undefined, done: true });
    if (this.sink) this.end();
  }

  /**
   * Hands every item to `sink.onItem` as it is pushed, in the pusher's call (the buffered
   * ones first, now), and calls `sink.onEnd` once after the last, when the queue is closed.
   * Instead of iterating: the queue has one consumer.
   */
  listen(sink: Sink<T>): void {
    const items = this.items;
    // By index: an item pushed meanwhile (by onItem itself) is appended and handed over too.
    if (items) for (let i = 0; i < items.length; i++) sink.onItem(items[i]!);
    this.items = undefined;
    this.sink = sink;
    if (this.closed) this.end();
  }

  private end(): void {
    if (this.sinkEnded) return;
    this.sinkEnded = true;
    this.sink!.onEnd();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Items waiting: none once listened to (each is handed over as it is pushed). */
  get size(): number {
    return this.items?.length ?? 0;
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.items?.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiters ??= []).push(resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next(), return: async () => { this.close(); return { value: undefined, done: true }; } };
  }
}
