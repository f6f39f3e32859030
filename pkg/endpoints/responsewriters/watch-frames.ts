// The frames a watcher is handed in one burst of events go to its connection in one write.
// The watch cache dispatches every event of an etcd message in one go (many of them when
// the replica is behind); written one by one, a watcher's first frame went out alone and
// the others waited in its Writable for that write to complete, then followed in a writev:
// two TLS records, two socket writes and the stream bookkeeping of each frame, per watcher
// and burst. Queued instead and written once the loop has read what was waiting (in the
// check phase, where the TLS writes of this turn complete too), they take one write, as
// upstream's watch server flushes its writer only when no further event is waiting for
// that watcher. The bytes are the same frames in the same order; HTTP/1.1 chunk boundaries
// may differ.
import type { ServerResponse } from 'node:http';
import { chunkOf, chunkSocket } from './chunked.js';

type Frame = string | Buffer;

/** Who a writer reports to (the watch it writes for: an object, so that a watch needs no closures for it). */
export interface FrameWriterOwner {
  /** After n frames went out in one write, for the watch's metrics and its check of what the client has not read. */
  framesWritten(n: number): void;
  /**
   * A write threw (with its error), or the response was found ended or destroyed when the
   * burst was due (without one: what was queued is dropped); the stream is over either way.
   */
  writeStopped(err?: unknown): void;
}

export class WatchFrameWriter {
  /**
   * Each queued frame, followed by its HTTP/1.1 chunk when it came pre-framed (shared by
   * every watcher of an event) or undefined: one array, so that queueing a frame touches one
   * object of this watcher's besides the writer (a thousand watchers' worth of them per event).
   */
  private queue: Array<Frame | undefined> | undefined;

  constructor(private readonly out: ServerResponse, private readonly http1: boolean, private readonly owner: FrameWriterOwner) {}

  /** Queues `frame` (with its chunk, if framed already) for the end of the current burst. */
  add(frame: Frame, chunk?: Buffer): void {
    // Made when a burst begins and dropped when it is written: an idle watch holds none.
    if (this.queue === undefined) { this.queue = []; schedule(this); }
    this.queue.push(frame, chunk);
  }

  /** Writes what is queued now: before the response ends, so that its end stays last. */
  flush(): void {
    const queue = this.queue;
    if (queue === undefined) return;
    const n = queue.length / 2;
    const out = this.out;
    this.queue = undefined;
    // Gone meanwhile (the client left, the stream was cut off, or the response ended by
    // anything but the handler's finish): what is queued is dropped, and writing would throw.
    if (out.writableEnded || out.destroyed) { this.owner.writeStopped(); return; }
    try {
      const socket = this.http1 ? chunkSocket(out) : undefined;
      if (socket) socket.write(n === 1 ? chunkAt(queue, 0) : joined(everyOther(queue, chunkAt)));
      else out.write(n === 1 ? queue[0]! : joined(everyOther(queue, (q, i) => q[i]!)));
    } catch (err) {
      this.owner.writeStopped(err);
      return;
    }
    this.owner.framesWritten(n);
  }
}

/** The HTTP/1.1 chunk of the frame queued at `i`: the shared one it came with, or made now. */
function chunkAt(queue: Array<Frame | undefined>, i: number): Buffer {
  return (queue[i + 1] as Buffer | undefined) ?? chunkOf(queue[i]!);
}

function everyOther<T>(queue: Array<Frame | undefined>, pick: (queue: Array<Frame | undefined>, i: number) => T): T[] {
  const parts: T[] = [];
  for (let i = 0; i < queue.length; i += 2) parts.push(pick(queue, i));
  return parts;
}

let queued: WatchFrameWriter[] = [];

function schedule(w: WatchFrameWriter): void {
  if (queued.length === 0) setImmediate(flushQueued);
  queued.push(w);
}

function flushQueued(): void {
  const writers = queued;
  queued = [];
  try {
    for (const w of writers) w.flush();
  } finally {
    lastParts = undefined;
    lastJoined = undefined;
  }
}

/**
 * The last join of this flush: watchers handed the same events (every watcher without a
 * selector, in the same format) queue the very same frames, so one copy serves them all.
 */
let lastParts: Frame[] | undefined;
let lastJoined: Frame | undefined;

function joined(parts: Frame[]): Frame {
  if (lastParts !== undefined && lastParts.length === parts.length && parts.every((p, i) => p === lastParts![i])) return lastJoined!;
  const all = parts.every((p) => typeof p === 'string')
    ? (parts as string[]).join('')
    : Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  lastParts = parts;
  lastJoined = all;
  return all;
}
