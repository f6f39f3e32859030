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

export class WatchFrameWriter {
  private frames: Frame[] = [];
  /** Each queued frame's HTTP/1.1 chunk when it came pre-framed (shared by every watcher of an event). */
  private chunks: Array<Buffer | undefined> = [];

  /**
   * `written(n)`: after n frames went out in one write, for the caller's metrics and its
   * check of what the client has not read. `failed`: a write threw; the stream is over.
   */
  constructor(private readonly out: ServerResponse, private readonly http1: boolean,
    private readonly written: (frames: number) => void, private readonly failed: (err: unknown) => void) {}

  /** Queues `frame` (with its chunk, if framed already) for the end of the current burst. */
  add(frame: Frame, chunk?: Buffer): void {
    if (this.frames.length === 0) schedule(this);
    this.frames.push(frame);
    this.chunks.push(chunk);
  }

  /** Writes what is queued now: before the response ends, so that its end stays last. */
  flush(): void {
    const n = this.frames.length;
    if (n === 0) return;
    const { frames, chunks, out } = this;
    this.frames = [];
    this.chunks = [];
    // Gone meanwhile (the client left, or the stream was cut off): what is queued is dropped.
    if (out.writableEnded || out.destroyed) return;
    try {
      const socket = this.http1 ? chunkSocket(out) : undefined;
      if (socket) {
        for (let i = 0; i < n; i++) chunks[i] ??= chunkOf(frames[i]!);
        socket.write(n === 1 ? chunks[0]! : joined(chunks as Buffer[]));
      } else {
        out.write(n === 1 ? frames[0]! : joined(frames));
      }
    } catch (err) {
      this.failed(err);
      return;
    }
    this.written(n);
  }
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
