import { expect } from 'chai';
import { neverSent, repeatable } from './retry.js';
import { compactionQuestion } from './compaction-question.js';
import { etcdError } from './testing/faults.js';

describe('pkg/storage/etcd/retry', () => {
  it('only calls that change nothing are repeatable', () => {
    expect(repeatable('KV', 'range', { key: Buffer.from('k') })).to.equal(true);
    expect(repeatable('KV', compactionQuestion, Buffer.alloc(0)), 'the compaction question').to.equal(true);
    expect(repeatable('KV', 'txn', { compare: [], success: [{ request_range: {} }], failure: [] })).to.equal(true);
    for (const op of ['request_put', 'request_delete_range', 'request_txn']) {
      expect(repeatable('KV', 'txn', { compare: [], success: [{ request_range: {} }], failure: [{ [op]: {} }] }), op).to.equal(false);
    }
    for (const [service, method] of [['KV', 'put'], ['KV', 'deleteRange'], ['KV', 'compact'], ['Lease', 'leaseGrant'], ['Lease', 'leaseRevoke']]) {
      expect(repeatable(service!, method!, {}), `${service}.${method}`).to.equal(false);
    }
  });

  it('a write is sent again only when it never reached etcd', () => {
    expect(neverSent(etcdError('connection refused'))).to.equal(true);
    for (const kind of ['unavailable', 'timed out', 'leader changed', 'no leader', 'deadline exceeded'] as const) {
      expect(neverSent(etcdError(kind)), kind).to.equal(false);
    }
  });
});
