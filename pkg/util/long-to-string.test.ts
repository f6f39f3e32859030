import { expect } from 'chai';
import { createRequire } from 'node:module';
import { installFastLongToString, longToString } from './long-to-string.js';

// The Long etcd3's protobufjs decodes 64-bit fields with.
const etcd3Require = createRequire(createRequire(import.meta.url).resolve('etcd3/package.json'));
interface LongLike { toString(radix?: number): string }
interface LongCtor { new (low: number, high: number, unsigned: boolean): LongLike; prototype: LongLike }
const Long = createRequire(etcd3Require.resolve('protobufjs'))('long') as LongCtor;

describe('util: Long to decimal string', () => {
  const words = [0, 1, 5, 0x1fffff, 0x200000, 0x7fffffff, -0x80000000, -0x200000, -0x200001, -1, 0x12345678, -0x6dcba988];
  const lows = [0, 1, 12345, -1, 0x7fffffff, -0x80000000, -0x65432110];

  it("gives what Long's own toString gives, signed and unsigned, across the range", () => {
    const stock = Long.prototype.toString;
    for (const high of words) for (const low of lows) for (const unsigned of [false, true]) {
      const l = new Long(low, high, unsigned);
      expect(longToString(l as never), `${high}/${low}/${unsigned}`).to.equal(stock.call(l, 10));
    }
  });

  it("replaces the base-10 toString of etcd3's Long only, keeping other radixes", () => {
    // Another test file may have started a server in this process and installed it already:
    // what is checked is the behaviour, not which function was there before.
    const before = Long.prototype.toString;
    installFastLongToString('file:///x/dist/bundle/kube-apiserver.cjs');
    expect(Long.prototype.toString, 'not in the bundle').to.equal(before);
    installFastLongToString();
    const [low, high] = [-0x65432110, -0x6dcba988];
    const expected = (BigInt(high >>> 0) << BigInt(32)) | BigInt(low >>> 0);
    const id = new Long(low, high, true);
    // Long's own base-10 toString divides (this.div); the replacement reads only the words.
    const undividable = Object.assign(Object.create(Long.prototype) as LongLike, id, { div: () => { throw new Error('divided'); } });
    expect(undividable.toString()).to.equal(expected.toString());
    expect(id.toString()).to.equal(expected.toString());
    expect(id.toString(16)).to.equal(expected.toString(16));
    expect(new Long(-1, -1, false).toString()).to.equal('-1');
    const pb = etcd3Require('protobufjs') as typeof import('protobufjs');
    const type = pb.Type.fromJSON('H', { fields: { cluster_id: { type: 'uint64', id: 1 }, revision: { type: 'int64', id: 3 } } });
    const header = { cluster_id: '14841639068965178418', revision: '42' };
    expect(type.toObject(type.decode(type.encode(type.fromObject(header)).finish()), { longs: String })).to.deep.equal(header);
  });
});
