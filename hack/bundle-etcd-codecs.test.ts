import { expect } from 'chai';
import { createRequire } from 'node:module';
import { etcd3Definition, longToStringSource, prebuiltCodecsSource } from './bundle-etcd-codecs.js';

// etcd3's copy of protobufjs and long, as the bundle has them.
const etcd3Require = createRequire(createRequire(import.meta.url).resolve('etcd3/package.json'));
const pb = etcd3Require('protobufjs') as typeof import('protobufjs');
interface LongCtor { new (low: number, high: number, unsigned: boolean): { toString(): string } }
const Long = createRequire(etcd3Require.resolve('protobufjs'))('long') as LongCtor;

type Codec = (scope: Record<string, unknown>) => (...args: unknown[]) => unknown;
const { table, longToString } = new Function(`${prebuiltCodecsSource(etcd3Definition())}
return { table: __etcdCodecs, longToString: longToString };`)() as {
  table: Record<string, Record<'encode' | 'decode' | 'toObject' | 'fromObject', Codec> & { fields: string }>;
  longToString(l: unknown): string;
};

describe('bundle: etcd3 codecs generated at build', () => {
  it('longToString gives what Long gives, signed and unsigned, across the range', () => {
    const f = new Function(`${longToStringSource}; return longToString;`)() as (l: unknown) => string;
    const words = [0, 1, 5, 0x1fffff, 0x200000, 0x7fffffff, -0x80000000, -1, 0x12345678, -0x6dcba988];
    for (const high of words) {
      for (const low of [0, 1, 12345, -1, 0x7fffffff, -0x80000000, -0x65432110]) {
        for (const unsigned of [false, true]) {
          const l = new Long(low, high, unsigned);
          expect(f(l), `${high}/${low}/${unsigned}`).to.equal(l.toString());
        }
      }
    }
    expect(longToString).to.be.a('function');
  });

  it("a response through the table's codecs reads as through protobufjs's own, 64-bit IDs included", () => {
    const root = pb.Root.fromJSON(JSON.parse(etcd3Definition()));
    root.resolveAll();
    const type = root.lookupType('etcdserverpb.RangeResponse');
    const message = {
      header: { cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision: '42', raft_term: '2' },
      kvs: [{ key: Buffer.from('/registry/a'), value: Buffer.from('v'), create_revision: '7', mod_revision: '41', version: '3', lease: '7587880243251929096' }],
      count: '1', more: false,
    };
    const options = { longs: String, enums: String, defaults: true, oneofs: true };
    const ownBytes = type.encode(type.fromObject(message)).finish();
    const own = type.toObject(type.decode(ownBytes), options);

    const entry = table['.etcdserverpb.RangeResponse']!;
    expect(entry.fields).to.equal(type.fieldsArray.map((f) => f.name).join(','));
    // Every type RangeResponse reaches uses the table too, as Type.setup would install it.
    for (const t of [type, root.lookupType('etcdserverpb.ResponseHeader'), root.lookupType('mvccpb.KeyValue')]) {
      const types = t.fieldsArray.map((f) => f.resolve().resolvedType);
      const codecs = table[t.fullName]!;
      Object.assign(t, {
        encode: codecs.encode({ Writer: pb.Writer, types, util: pb.util }),
        decode: codecs.decode({ Reader: pb.Reader, types, util: pb.util }),
        fromObject: codecs.fromObject({ types, util: pb.util }),
        toObject: codecs.toObject({ types, util: pb.util }),
      });
    }
    const bytes = type.encode(type.fromObject(message)).finish();
    expect(Buffer.from(bytes).equals(Buffer.from(ownBytes))).to.equal(true);
    expect(type.toObject(type.decode(bytes), options)).to.deep.equal(own);
    expect((own as { header: { cluster_id: string } }).header.cluster_id).to.equal('14841639068965178418');
  });
});
