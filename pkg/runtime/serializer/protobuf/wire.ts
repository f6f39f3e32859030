// The protobuf wire primitives, written for this codec's hot paths: one growable Buffer
// instead of protobufjs's list of write operations, nested messages written in place
// (a one-byte length slot, shifted only when the message turns out to need more), and
// short ASCII strings copied byte by byte instead of through a native call.

const twoTo63 = 2 ** 63;
const twoTo63Minus1 = 2n ** 63n - 1n;
const twoTo32 = 4294967296;

/**
 * Short strings decoded before, one copy while they are in use. Why: the watch cache
 * holds every object it decodes (and 75 s of their versions in its ring), and most of a
 * pod's short strings repeat across pods and versions (image, policies, condition types
 * and statuses, the node's name; times are shared by gotime.ts): a copy each was about
 * 1.8 KB of a bound pod's heap, which every major GC marks. Strings are immutable, so
 * sharing them changes nothing a reader can see; the table forgets all once it is full.
 */
const internedMaxLength = 40;
const internedMax = 8192;
const seenStrings = new Map<string, string>();

function interned(s: string): string {
  const seen = seenStrings.get(s);
  if (seen !== undefined) return seen;
  if (seenStrings.size >= internedMax) seenStrings.clear();
  seenStrings.set(s, s);
  return s;
}

/** Node's Buffer methods behind toString(encoding, start, end), without its argument checks. */
interface NativeSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

export class Writer {
  private buf: Buffer;
  pos = 0;
  /** Where the bytes flush() has not yet handed out begin. */
  private flushed = 0;
  private forks: number[] = [];

  constructor(size = 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  static create(): Writer {
    return new Writer();
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** An unsigned varint below 2^32 (tags, lengths). */
  uint32(v: number): this {
    this.ensure(5);
    const b = this.buf;
    let p = this.pos;
    let x = v >>> 0;
    while (x > 127) { b[p++] = (x & 127) | 128; x >>>= 7; }
    b[p++] = x;
    this.pos = p;
    return this;
  }

  int32(v: number): this {
    return v >= 0 ? this.uint32(v) : this.int64(v);
  }

  /**
   * A varint of any integer a double holds exactly; negatives as 10-byte two's complement.
   * 2^63 is an int64 literal near the top rounded up by JSON.parse: int64's max, not its min.
   */
  int64(v: number): this {
    if (v >= 0 && v < twoTo32) return this.uint32(v);
    this.ensure(10);
    let x = v >= twoTo63 ? twoTo63Minus1 : BigInt.asUintN(64, BigInt(Math.trunc(v)));
    const b = this.buf;
    while (x > 127n) { b[this.pos++] = Number(x & 127n) | 128; x >>= 7n; }
    b[this.pos++] = Number(x);
    return this;
  }

  uint64(v: number): this {
    return this.int64(v);
  }

  bool(v: boolean): this {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
    return this;
  }

  double(v: number): this {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
    return this;
  }

  float(v: number): this {
    this.ensure(4);
    this.buf.writeFloatLE(v, this.pos);
    this.pos += 4;
    return this;
  }

  /** A length-prefixed UTF-8 string. */
  string(s: string): this {
    const n = s.length;
    if (n < 128) {
      this.ensure(1 + n * 3);
      const b = this.buf;
      const start = this.pos + 1;
      let p = start;
      let ascii = true;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 128) { ascii = false; break; }
        b[p++] = c;
      }
      if (ascii) {
        b[this.pos] = n;
        this.pos = p;
        return this;
      }
    }
    const len = Buffer.byteLength(s);
    this.uint32(len);
    this.ensure(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
    return this;
  }

  bytes(v: Uint8Array): this {
    this.uint32(v.length);
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  /** Appends already-encoded bytes as they are. */
  raw(v: Uint8Array): this {
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  /** Starts a length-delimited message; ldelim() ends it. */
  fork(): this {
    this.ensure(1);
    this.forks.push(this.pos);
    this.pos += 1;
    return this;
  }

  ldelim(): this {
    const start = this.forks.pop()!;
    const len = this.pos - start - 1;
    if (len < 128) {
      this.buf[start] = len;
      return this;
    }
    const size = len < 16384 ? 2 : len < 2097152 ? 3 : len < 268435456 ? 4 : 5;
    this.ensure(size - 1);
    this.buf.copyWithin(start + size, start + 1, this.pos);
    this.pos += size - 1;
    let x = len;
    let p = start;
    while (x > 127) { this.buf[p++] = (x & 127) | 128; x >>>= 7; }
    this.buf[p] = x;
    return this;
  }

  /** The bytes written; a view of the writer's buffer (the writer is not reused). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  /**
   * The bytes written since the last flush, as a view; writing goes on after them (a later
   * growth copies into a new buffer, so views handed out stay as they are).
   */
  flush(): Buffer {
    const out = this.buf.subarray(this.flushed, this.pos);
    this.flushed = this.pos;
    return out;
  }
}

export class Reader {
  pos: number;
  readonly len: number;

  constructor(readonly buf: Buffer, start = 0, end = buf.length) {
    this.pos = start;
    this.len = end;
  }

  static create(b: Uint8Array): Reader {
    return new Reader(Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length));
  }

  private truncated(): never {
    throw new RangeError(`index out of range: ${this.pos} + 1 > ${this.len}`);
  }

  uint32(): number {
    const b = this.buf;
    let p = this.pos;
    if (p >= this.len) this.truncated();
    let c = b[p++];
    let x = c & 127;
    if (c >= 128) {
      c = b[p++]; x |= (c & 127) << 7;
      if (c >= 128) {
        c = b[p++]; x |= (c & 127) << 14;
        if (c >= 128) {
          c = b[p++]; x |= (c & 127) << 21;
          if (c >= 128) {
            c = b[p++]; x = (x | ((c & 15) << 28)) >>> 0;
            // A longer varint (a negative int32): its bits past 32 are dropped.
            while (c >= 128) c = b[p++];
          }
        }
      }
    }
    if (p > this.len) this.truncated();
    this.pos = p;
    return x >>> 0;
  }

  int32(): number {
    return this.uint32() | 0;
  }

  /** A varint as a double: exact to 2^53; negatives (two's complement) as negatives. */
  int64(): number {
    const b = this.buf;
    let p = this.pos;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let c: number;
    do {
      if (p >= this.len) this.truncated();
      c = b[p++];
      if (shift < 28) lo |= (c & 127) << shift;
      else if (shift === 28) { lo |= (c & 15) << 28; hi |= (c & 127) >> 4; }
      else hi |= (c & 127) << (shift - 32);
      shift += 7;
    } while (c >= 128 && shift < 70);
    this.pos = p;
    lo >>>= 0;
    if (hi & 0x80000000) {
      // Negative: two's complement of the 64-bit value.
      const nlo = (~lo + 1) >>> 0;
      const nhi = (~hi + (nlo === 0 ? 1 : 0)) >>> 0;
      return -(nhi * twoTo32 + nlo);
    }
    return (hi >>> 0) * twoTo32 + lo;
  }

  uint64(): number {
    return this.int64();
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  double(): number {
    if (this.pos + 8 > this.len) this.truncated();
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  float(): number {
    if (this.pos + 4 > this.len) this.truncated();
    const v = this.buf.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  string(): string {
    const n = this.uint32();
    const start = this.pos;
    const end = start + n;
    if (end > this.len) this.truncated();
    this.pos = end;
    const b = this.buf as Buffer & NativeSlices;
    // Short ASCII strings (names, keys, enums) decode as latin1, a cheaper native path;
    // long ones go straight to the UTF-8 decoder, whose own ASCII scan is faster than ours.
    if (n > 64) return b.utf8Slice(start, end);
    for (let i = start; i < end; i++) if (b[i] >= 128) return b.utf8Slice(start, end);
    const s = b.latin1Slice(start, end);
    return n > internedMaxLength ? s : interned(s);
  }

  bytes(): Buffer {
    const n = this.uint32();
    const start = this.pos;
    if (start + n > this.len) this.truncated();
    this.pos = start + n;
    return this.buf.subarray(start, start + n);
  }

  skipType(wireType: number): void {
    switch (wireType) {
      case 0: this.int64(); return;
      case 1: this.pos += 8; break;
      case 2: { const n = this.uint32(); this.pos += n; break; }
      case 5: this.pos += 4; break;
      default: throw new Error(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
    if (this.pos > this.len) this.truncated();
  }
}
