import { expect } from 'chai';
import protobuf from 'protobufjs/minimal.js';
import { Reader, Writer } from './wire.js';

// Our writer and reader agree with protobufjs, the reference implementation here, on
// the values the API carries: varints of every size, negative int32/int64, strings
// (ASCII and not), nested lengths that need more than one byte.
describe('protobuf wire primitives', () => {
  const ints = [0, 1, 127, 128, 300, 16383, 16384, 2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -1, -2, -(2 ** 31), -(2 ** 40)];

  it('writes int64 varints as protobufjs does and reads them back', () => {
    for (const v of ints) {
      const ours = new Writer(1).int64(v).finish();
      const ref = protobuf.Writer.create().int64(v).finish();
      expect(ours.toString('hex'), String(v)).to.equal(Buffer.from(ref).toString('hex'));
      expect(Reader.create(ours).int64(), String(v)).to.equal(v);
    }
  });

  it('writes 2^63 (an int64 literal near the top, rounded up by JSON.parse) as int64\'s max, not its min', () => {
    const written = new Writer(1).int64(2 ** 63).finish();
    expect(written.toString('hex')).to.equal(Buffer.from(protobuf.Writer.create().int64('9223372036854775807').finish()).toString('hex'));
    expect(Reader.create(written).int64()).to.equal(2 ** 63);
  });

  it('writes int32 as protobufjs does (negatives sign-extended to ten bytes)', () => {
    for (const v of [0, 5, 2 ** 31 - 1, -1, -(2 ** 31)]) {
      const ours = new Writer(1).int32(v).finish();
      expect(ours.toString('hex')).to.equal(Buffer.from(protobuf.Writer.create().int32(v).finish()).toString('hex'));
      expect(Reader.create(ours).int32()).to.equal(v);
    }
  });

  it('round-trips strings and grows nested lengths past one byte', () => {
    for (const s of ['', 'a', 'ascii only', 'é', '日本語', 'x'.repeat(200), `${'y'.repeat(100)}ü`]) {
      const w = new Writer(2).uint32(10).fork().uint32(10).string(s).ldelim();
      const ref = protobuf.Writer.create().uint32(10).fork().uint32(10).string(s).ldelim();
      expect(w.finish().toString('hex')).to.equal(Buffer.from(ref.finish()).toString('hex'));
      const r = Reader.create(new Writer().string(s).finish());
      expect(r.string()).to.equal(s);
    }
    const big = new Writer(4).uint32(10).fork().bytes(Buffer.alloc(70_000, 7)).ldelim().finish();
    const r = Reader.create(big);
    expect(r.uint32()).to.equal(10);
    expect(r.bytes().length).to.equal(70_000 + 3);
  });

  it('refuses truncated input instead of reading past the end', () => {
    expect(() => Reader.create(Buffer.from([0x80])).uint32()).to.throw(RangeError);
    expect(() => Reader.create(Buffer.from([0x05, 0x61])).string()).to.throw(RangeError);
    expect(() => Reader.create(Buffer.from([0x0a])).skipType(2)).to.throw(RangeError);
  });
});
