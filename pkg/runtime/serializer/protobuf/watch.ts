// The protobuf watch stream (application/vnd.kubernetes.protobuf;stream=watch): each
// event a 4-byte big-endian length, then a meta.v1.WatchEvent without envelope whose
// object is a RawExtension holding the enveloped object.
import { Reader, Writer } from './wire.js';
import { encodeObject, decodeObject } from './envelope.js';

export const protobufWatchContentType = 'application/vnd.kubernetes.protobuf;stream=watch';

export function encodeWatchFrame(type: string, object: Record<string, unknown>): Buffer {
  const w = Writer.create();
  w.uint32(10).string(type);
  w.uint32(18).fork().uint32(10).bytes(encodeObject(object)).ldelim();
  const msg = w.finish();
  const frame = Buffer.allocUnsafe(4 + msg.length);
  frame.writeUInt32BE(msg.length, 0);
  frame.set(msg, 4);
  return frame;
}

/** Splits a stream's bytes into events; `rest` is an incomplete frame to prepend to the next chunk. */
export function decodeWatchFrames(buf: Buffer): { events: Array<{ type: string; object: Record<string, unknown> }>; rest: Buffer } {
  const events: Array<{ type: string; object: Record<string, unknown> }> = [];
  let off = 0;
  while (buf.length - off >= 4) {
    const len = buf.readUInt32BE(off);
    if (buf.length - off - 4 < len) break;
    const r = Reader.create(buf.subarray(off + 4, off + 4 + len));
    let type = '';
    let raw: Uint8Array = new Uint8Array(0);
    while (r.pos < r.len) {
      const tag = r.uint32();
      if (tag === 10) type = r.string();
      else if (tag === 18) {
        const end = r.uint32() + r.pos;
        while (r.pos < end) {
          const t = r.uint32();
          if (t === 10) raw = r.bytes(); else r.skipType(t & 7);
        }
      } else r.skipType(tag & 7);
    }
    events.push({ type, object: decodeObject(raw) });
    off += 4 + len;
  }
  return { events, rest: buf.subarray(off) };
}
