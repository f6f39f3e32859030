import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { rangeRequestAt } from './compaction-question.js';

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
