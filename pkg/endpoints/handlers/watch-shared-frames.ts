// The encoded frames of the watch cache's event objects, shared by every watch of one format
// and version: each event is encoded once per format (upstream's cacher too), not once per
// watcher. A burst hands the same object to every watcher in a row, so the frames of the
// object handed last are kept in one place all those watches read (one hot object), before
// the per-object store that serves an object handed out again later (a replay, a watch in
// another burst).
import { chunkOf } from '../responsewriters/chunked.js';

/** What makes a frame the first time an object is sent as an event (the watch sending it). */
export interface FrameEncoder<T extends object = never> {
  encodeFrame(type: string, object: T): string | Buffer;
}

/** Per stored event object, for as long as something holds the object: frames by format, version and type. */
const byObject = new WeakMap<object, Map<string, Buffer>>();

/** The frames of one format and version, shared by the watches that send them. */
export class SharedFrames {
  private lastObject: object | undefined;
  private lastType: string | undefined;
  private lastFrame: Buffer | undefined;
  private lastChunk: Buffer | undefined;
  private readonly keyOfType = new Map<string, { frame: string; chunk: string }>();

  private constructor(private readonly key: string) {}

  private static readonly all = new Map<string, SharedFrames>();

  /** The one SharedFrames of `key` (format and version: whatever makes two watches' frames of one event differ). */
  static of(key: string): SharedFrames {
    let s = SharedFrames.all.get(key);
    if (!s) { s = new SharedFrames(key); SharedFrames.all.set(key, s); }
    return s;
  }

  /** `object`'s frame as an event of `type`, made by the `encoder` of the first watch to send it. */
  frame<T extends object>(type: string, object: T, encoder: FrameEncoder<T>): Buffer {
    if (object === this.lastObject && type === this.lastType) return this.lastFrame!;
    const keys = this.keysOf(type);
    let frames = byObject.get(object);
    if (!frames) { frames = new Map(); byObject.set(object, frames); }
    let f = frames.get(keys.frame);
    if (f === undefined) {
      // As bytes: each watcher's size observation then reads a length instead of measuring UTF-8.
      const encoded = encoder.encodeFrame(type, object);
      f = typeof encoded === 'string' ? Buffer.from(encoded) : encoded;
      frames.set(keys.frame, f);
    }
    this.lastObject = object;
    this.lastType = type;
    this.lastFrame = f;
    this.lastChunk = frames.get(keys.chunk);
    return f;
  }

  /** The HTTP/1.1 chunk of the frame frame() returned last (for `object` as `type`). */
  chunk(type: string, object: object): Buffer {
    if (this.lastChunk !== undefined && object === this.lastObject && type === this.lastType) return this.lastChunk;
    const frames = byObject.get(object)!;
    const keys = this.keysOf(type);
    let c = frames.get(keys.chunk);
    if (c === undefined) { c = chunkOf(frames.get(keys.frame)!); frames.set(keys.chunk, c); }
    if (object === this.lastObject && type === this.lastType) this.lastChunk = c;
    return c;
  }

  private keysOf(type: string): { frame: string; chunk: string } {
    let k = this.keyOfType.get(type);
    if (!k) { k = { frame: `${this.key}|${type}`, chunk: `${this.key}|${type}|chunk` }; this.keyOfType.set(type, k); }
    return k;
  }
}
