import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { testEtcdEndpoint } from '../../../test/harness/etcd.js';
import { askCurrentRevision, askRevisionKept, headerRevision, rangeRequestAt } from './compaction-question.js';

/** etcd3's own encoders of Range's request and answer, from a client that never connects. */
function etcd3Range(): { requestSerialize(req: object): Buffer; responseSerialize(res: object): Buffer } {
  const client = new Etcd3({ hosts: '127.0.0.1:1' });
  try {
    const kv = (client as unknown as { pool: { hosts: Array<{ getServiceClient(n: string): object }> } }).pool.hosts[0]!.getServiceClient('KV');
    return (kv.constructor as unknown as { service: { Range: ReturnType<typeof etcd3Range> } }).service.Range;
  } finally {
    client.close();
  }
}

describe('compaction question: the RangeRequest written by hand', () => {
  it('is byte for byte what etcd3 encodes for the same request, small and large revisions and keys, and without a revision', () => {
    const { requestSerialize } = etcd3Range();
    for (const key of [Buffer.from([0]), Buffer.from('/registry/health'), Buffer.from(`/${'p'.repeat(126)}/`), Buffer.from(`/${'p'.repeat(300)}/configmaps/`)]) {
      for (const revision of [undefined, 1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
        const expected = requestSerialize({ key, limit: 1, ...(revision === undefined ? {} : { revision: String(revision) }), keys_only: true });
        expect(rangeRequestAt(key, revision).equals(expected), `key of ${key.length} bytes, revision ${revision}`).to.equal(true);
      }
    }
  });
});

/** A client of the test etcd; for 'the pool', as etcd3 makes it, otherwise one whose private pool differs. */
async function clientThrough(through: string): Promise<Etcd3> {
  const client = new Etcd3({ hosts: await testEtcdEndpoint() });
  if (through !== 'the pool') {
    // A pool without the members and exec this module looks for; etcd3's close still reaches the real one.
    const real = (client as unknown as { pool: { close(): void } }).pool;
    Object.defineProperty(client, 'pool', { value: { close: () => real.close() } });
  }
  return client;
}

describe('current revision: the answer read by hand', () => {
  it('is the header revision etcd3 encodes in a RangeResponse, small and large, with any other header fields and kvs', () => {
    const serialize = etcd3Range().responseSerialize;
    for (const revision of [1, 127, 128, 16_384, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      const header = { cluster_id: '18446744073709551615', member_id: '300', revision: String(revision), raft_term: '7' };
      expect(headerRevision(serialize({ header, count: '1', kvs: [{ key: Buffer.from('k'), mod_revision: '3' }] })), `revision ${revision}`).to.equal(revision);
    }
    expect(() => headerRevision(serialize({ count: '1' })), 'no header').to.throw(/no header/);
  });

  for (const through of ['the pool', 'kv.range (no pool found)']) {
    it(`is etcd's revision after the last write, through ${through}`, async () => {
      const client = await clientThrough(through);
      try {
        const written = Number((await client.put(`/current-revision/${through}`).value('1').exec()).header.revision);
        const asked = await askCurrentRevision(client, '/current-revision/none');
        const after = Number((await client.get('/current-revision/none').exec()).header.revision);
        expect(asked).to.be.within(written, after);
      } finally {
        client.close();
      }
    });
  }
});

describe('compaction question: the answers', () => {
  // The same answers through etcd3's pool and, for an etcd3 whose private pool differs, through kv.range.
  for (const through of ['the pool', 'kv.range (no pool found)']) {
    it(`resolves for a kept revision and rejects with etcd's compaction error past it, through ${through}`, async () => {
      const client = await clientThrough(through);
      try {
        const key = `/compaction-question/${through}`;
        const first = Number((await client.put(key).value('1').exec()).header.revision);
        const second = Number((await client.put(key).value('2').exec()).header.revision);
        await askRevisionKept(client, key, first);
        await client.kv.compact({ revision: String(second) });
        const err = await askRevisionKept(client, key, first).then(() => undefined, (e: Error) => e);
        expect(err?.message).to.match(/compacted/);
        await askRevisionKept(client, key, second);
      } finally {
        client.close();
      }
    });
  }
});
