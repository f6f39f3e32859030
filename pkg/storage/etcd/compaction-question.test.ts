import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { testEtcdEndpoint } from '../../../test/harness/etcd.js';
import { askRevisionKept, rangeRequestAt } from './compaction-question.js';

describe('compaction question: the RangeRequest written by hand', () => {
  it('is byte for byte what etcd3 encodes for the same request, small and large revisions', () => {
    const client = new Etcd3({ hosts: '127.0.0.1:1' });
    try {
      const kv = (client as unknown as { pool: { hosts: Array<{ getServiceClient(n: string): object }> } }).pool.hosts[0]!.getServiceClient('KV');
      const serialize = (kv.constructor as unknown as { service: { Range: { requestSerialize(req: object): Buffer } } }).service.Range.requestSerialize;
      for (const revision of [1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
        const expected = serialize({ key: Buffer.from([0]), limit: 1, revision: String(revision), keys_only: true });
        expect(rangeRequestAt(revision).equals(expected), `revision ${revision}`).to.equal(true);
      }
    } finally {
      client.close();
    }
  });
});

describe('compaction question: the answers', () => {
  // The same answers through etcd3's pool and, for an etcd3 whose private pool differs, through kv.range.
  for (const through of ['the pool', 'kv.range (no pool found)']) {
    it(`resolves for a kept revision and rejects with etcd's compaction error past it, through ${through}`, async () => {
      const client = new Etcd3({ hosts: await testEtcdEndpoint() });
      if (through !== 'the pool') {
        // A pool without the members and exec this module looks for; etcd3's close still reaches the real one.
        const real = (client as unknown as { pool: { close(): void } }).pool;
        Object.defineProperty(client, 'pool', { value: { close: () => real.close() } });
      }
      try {
        const key = `/compaction-question/${through}`;
        const first = Number((await client.put(key).value('1').exec()).header.revision);
        const second = Number((await client.put(key).value('2').exec()).header.revision);
        await askRevisionKept(client, first);
        await client.kv.compact({ revision: String(second) });
        const err = await askRevisionKept(client, first).then(() => undefined, (e: Error) => e);
        expect(err?.message).to.match(/compacted/);
        await askRevisionKept(client, second);
      } finally {
        client.close();
      }
    });
  }
});
