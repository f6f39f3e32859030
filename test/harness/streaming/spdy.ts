// The server side of a SPDY/3.1 session (draft-mbelshe-httpbis-spdy-00 with the 3.1
// additions), as far as the kubelet's streaming API needs it: the client opens every
// stream (SYN_STREAM), the server answers each with SYN_REPLY, both sides send DATA with
// FIN for a half-close, RST_STREAM ends a stream, PING is echoed, GOAWAY and SETTINGS
// are accepted. Flow control (WINDOW_UPDATE) is ignored: Go's spdystream does not
// enforce windows, and the payloads here are small.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { constants, inflateSync } from 'node:zlib';
import { adler32, spdyDictionary } from './spdy-dictionary.js';

const version = 3;

export const FrameType = {
  SynStream: 1, SynReply: 2, RstStream: 3, Settings: 4, Ping: 6, GoAway: 7, Headers: 8, WindowUpdate: 9,
} as const;

const flagFin = 0x01;

/** RST_STREAM status codes. */
export const RstStatus = { ProtocolError: 1, InvalidStream: 2, RefusedStream: 3, Cancel: 5, InternalError: 6 } as const;

export type SpdyHeaders = Map<string, string[]>;

export class SpdyProtocolError extends Error {}

/** Name/value block: a count, then length-prefixed names and values (values NUL-joined). */
export function encodeHeaderBlock(headers: Record<string, string | string[]>): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [u32(entries.length)];
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(Array.isArray(value) ? value.join('\0') : value, 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(raw: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = new Map();
  let off = 0;
  const take = (): Buffer => {
    if (off + 4 > raw.length) throw new SpdyProtocolError('truncated header block');
    const len = raw.readUInt32BE(off);
    off += 4;
    if (off + len > raw.length) throw new SpdyProtocolError('truncated header block');
    const out = raw.subarray(off, off + len);
    off += len;
    return out;
  };
  if (raw.length < 4) throw new SpdyProtocolError('truncated header block');
  const count = raw.readUInt32BE(0);
  off = 4;
  for (let i = 0; i < count; i++) {
    const name = take().toString('utf8').toLowerCase();
    const values = take().toString('utf8').split('\0');
    headers.set(name, [...(headers.get(name) ?? []), ...values]);
  }
  return headers;
}

/**
 * The peer's header blocks are one zlib stream for the whole session, each block ending
 * with a sync flush. Node has no synchronous streaming inflate, so every block is decoded
 * by inflating the session's blocks so far and keeping the new tail of the output: a
 * session carries a handful of small blocks, so the repetition costs nothing that matters
 * and frames stay strictly in order.
 */
export class HeaderInflater {
  private readonly blocks: Buffer[] = [];
  private seen = 0;

  inflate(block: Buffer): Buffer {
    this.blocks.push(block);
    let all: Buffer;
    try {
      all = inflateSync(Buffer.concat(this.blocks), { dictionary: spdyDictionary, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (err) {
      throw new SpdyProtocolError(`header block does not inflate: ${(err as Error).message}`);
    }
    const out = all.subarray(this.seen);
    this.seen = all.length;
    return out;
  }
}

/**
 * Our header blocks: a zlib stream announcing the SPDY dictionary (FDICT with its
 * Adler-32) whose blocks are stored (uncompressed) deflate blocks, each header block
 * ending in a sync flush. That is a valid zlib stream every SPDY/3 peer inflates, written
 * synchronously, so replies keep their place before the stream's data.
 */
export class HeaderDeflater {
  private started = false;

  deflate(raw: Buffer): Buffer {
    const parts: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      // CMF 0x78 (deflate, 32K window); FLG 0x20 sets FDICT and makes CMF*256+FLG a multiple of 31.
      parts.push(Buffer.from([0x78, 0x20]), u32(adler32(spdyDictionary)));
    }
    let off = 0;
    do {
      const chunk = raw.subarray(off, off + 0xffff);
      const head = Buffer.alloc(5);
      head[0] = 0x00; // BFINAL 0, BTYPE 00 (stored); we are always on a byte boundary
      head.writeUInt16LE(chunk.length, 1);
      head.writeUInt16LE(~chunk.length & 0xffff, 3);
      parts.push(head, chunk);
      off += 0xffff;
    } while (off < raw.length);
    // The sync-flush marker (an empty stored block), as zlib's Z_SYNC_FLUSH ends a block:
    // inflaters such as Go's hand out a stored block's bytes only when the next block starts.
    parts.push(Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]));
    return Buffer.concat(parts);
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | version, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
}

function dataFrame(streamId: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(streamId & 0x7fffffff, 0);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
}

/** One stream the client opened. Events: 'data' (Buffer), 'end' (client half-closed), 'reset'. */
export class SpdyStream extends EventEmitter {
  private localClosed = false;
  remoteClosed = false;

  constructor(private readonly session: SpdySession, readonly id: number, readonly headers: SpdyHeaders) {
    super();
  }

  header(name: string): string {
    return this.headers.get(name.toLowerCase())?.[0] ?? '';
  }

  write(data: Buffer | string): void {
    if (this.localClosed) return;
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < buf.length; off += 0x10000) this.session.send(dataFrame(this.id, 0, buf.subarray(off, off + 0x10000)));
  }

  /** Half-close our side: an empty DATA frame with FIN. */
  end(data?: Buffer | string): void {
    if (data !== undefined) this.write(data);
    if (this.localClosed) return;
    this.localClosed = true;
    this.session.send(dataFrame(this.id, flagFin, Buffer.alloc(0)));
  }

  reset(status: number = RstStatus.Cancel): void {
    this.localClosed = true;
    this.session.send(controlFrame(FrameType.RstStream, 0, Buffer.concat([u32(this.id), u32(status)])));
  }
}

/**
 * A server session on an upgraded socket. `onStream` sees every stream after its
 * SYN_REPLY went out; `head` holds bytes that arrived with the HTTP request.
 */
export class SpdySession extends EventEmitter {
  private buf: Buffer = Buffer.alloc(0);
  private readonly inflater = new HeaderInflater();
  private readonly deflater = new HeaderDeflater();
  private readonly streams = new Map<number, SpdyStream>();
  private closed = false;

  constructor(readonly socket: Duplex, private readonly onStream: (s: SpdyStream) => void, head: Buffer = Buffer.alloc(0)) {
    super();
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('close', () => this.shutdown());
    socket.on('error', () => socket.destroy());
    if (head.length > 0) this.receive(head);
  }

  send(frame: Buffer): void {
    if (!this.closed) this.socket.write(frame);
  }

  goAway(status = 0): void {
    const last = Math.max(0, ...this.streams.keys());
    this.send(controlFrame(FrameType.GoAway, 0, Buffer.concat([u32(last), u32(status)])));
  }

  destroy(): void {
    this.shutdown();
    this.socket.destroy();
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) if (!s.remoteClosed) { s.remoteClosed = true; s.emit('reset'); }
    this.emit('close');
  }

  private receive(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    try {
      while (this.buf.length >= 8) {
        const length = this.buf.readUInt32BE(4) & 0xffffff;
        if (this.buf.length < 8 + length) return;
        const frame = this.buf.subarray(0, 8 + length);
        this.buf = this.buf.subarray(8 + length);
        this.frame(frame);
      }
    } catch (err) {
      // A session whose framing or header state is broken cannot continue.
      this.emit('protocolError', err);
      this.goAway(1);
      this.destroy();
    }
  }

  private frame(f: Buffer): void {
    const flags = f[4];
    const payload = f.subarray(8);
    if ((f[0] & 0x80) === 0) {
      const stream = this.streams.get(f.readUInt32BE(0) & 0x7fffffff);
      if (!stream || stream.remoteClosed) return;
      if (payload.length > 0) stream.emit('data', Buffer.from(payload));
      if (flags & flagFin) this.remoteEnd(stream);
      return;
    }
    const v = f.readUInt16BE(0) & 0x7fff;
    if (v !== version) throw new SpdyProtocolError(`unsupported SPDY version ${v}`);
    switch (f.readUInt16BE(2)) {
      case FrameType.SynStream: return this.synStream(flags, payload);
      case FrameType.Headers: {
        // Decoded only to keep the header compression state in step.
        this.inflater.inflate(payload.subarray(4));
        const stream = this.streams.get(payload.readUInt32BE(0) & 0x7fffffff);
        if (stream && flags & flagFin) this.remoteEnd(stream);
        return;
      }
      case FrameType.RstStream: {
        const stream = this.streams.get(payload.readUInt32BE(0) & 0x7fffffff);
        if (stream) { this.streams.delete(stream.id); stream.remoteClosed = true; stream.emit('reset'); }
        return;
      }
      case FrameType.Ping: return this.send(f);
      case FrameType.GoAway: this.emit('goaway'); return;
      default: return; // SETTINGS, WINDOW_UPDATE, SYN_REPLY (we open no streams)
    }
  }

  private synStream(flags: number, payload: Buffer): void {
    const id = payload.readUInt32BE(0) & 0x7fffffff;
    const headers = decodeHeaderBlock(this.inflater.inflate(payload.subarray(10)));
    if (id % 2 === 0 || this.streams.has(id)) {
      this.send(controlFrame(FrameType.RstStream, 0, Buffer.concat([u32(id), u32(RstStatus.ProtocolError)])));
      return;
    }
    const stream = new SpdyStream(this, id, headers);
    this.streams.set(id, stream);
    this.send(controlFrame(FrameType.SynReply, 0, Buffer.concat([u32(id), this.deflater.deflate(encodeHeaderBlock({}))])));
    this.onStream(stream);
    if (flags & flagFin) this.remoteEnd(stream);
  }

  private remoteEnd(stream: SpdyStream): void {
    stream.remoteClosed = true;
    stream.emit('end');
  }
}
