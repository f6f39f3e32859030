// One watch the cache serves: the watcher the fan-out offers events to, its queue, and the
// stream handed to the watch's consumer, as one object. A replica at 1,000 nodes serves
// about 11,000 watches for their whole lives, and every major GC marks each of their
// objects again: as a record, a queue, a stream object and their closures a watch was about
// ten objects here, as one instance with prototype methods it is one (two while a burst of
// events waits for a consumer that iterates).
import type { WatchEvent, WatchStream } from '../interfaces.js';
import { AsyncQueue } from '../../util/async-queue.js';
import type { Watcher, WatcherSet } from './watchers.js';

export class CacheWatcher extends AsyncQueue<WatchEvent> implements Watcher, WatchStream {
  told?: number;

  /** `key`: exact, or a prefix ending in '/'; the watcher leaves `set` when stopped. */
  constructor(readonly key: string, readonly exact: boolean, readonly after: number,
    readonly trigger: Watcher['trigger'], private readonly set: WatcherSet) {
    super();
  }

  stop(): void {
    this.set.remove(this);
    this.close();
  }

  /** Iterating: leaving the loop early stops the watch, not only the queue. */
  override [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return { next: () => this.next(), return: async () => { this.stop(); return { value: undefined, done: true }; } };
  }
}
