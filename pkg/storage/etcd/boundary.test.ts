import { expect } from 'chai';
import { BrokenCircuitError } from 'cockatiel';
import { ClientClosedError, GRPCDeadlineExceededError, GRPCUnavailableError } from 'etcd3';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { translateEtcdError } from './boundary.js';
import { etcdError, etcdFailureKinds, type EtcdFailure } from './testing/faults.js';
import { StorageError, type StorageErrorCode } from '../interfaces.js';
import { repoRoot } from '../../../test/harness/repo.js';

/**
 * Clients of etcd made without the boundary, and why each may: neither serves a request
 * with etcd's answer (one checks etcd is up before serving, one reports the probe's text
 * as upstream's componentstatuses does, and throws nothing).
 */
const unguardedClients: Record<string, string> = {
  'pkg/storage/etcd/client.ts': 'the factory itself: each caller that serves requests guards what it returns',
  'pkg/storage/etcd/embedded.ts': 'the embedded etcd\'s start-up round trip',
  'pkg/registry/core/componentstatuses/probes.ts': 'the etcd health probe, whose error text is the condition\'s message',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

describe('pkg/storage/etcd/boundary', () => {
  it('every etcd client in pkg/ and cmd/ is guarded (no raw etcd3 client reaches a request)', () => {
    const root = repoRoot();
    const offenders: string[] = [];
    for (const file of [...sources(join(root, 'pkg')), ...sources(join(root, 'cmd'))]) {
      const text = readFileSync(file, 'utf8');
      const rel = relative(root, file);
      if (!/new Etcd3\s*\(|createEtcdClient\s*\(/.test(text) || rel in unguardedClients) continue;
      if (!/guardEtcd\s*\(/.test(text)) offenders.push(rel);
    }
    expect(offenders, 'wrap each new Etcd3(...) with guardEtcd from pkg/storage/etcd/boundary.ts').to.deep.equal([]);
  });

  const codes: Record<EtcdFailure, { read: StorageErrorCode; write: StorageErrorCode }> = {
    'unavailable': { read: 'Unreachable', write: 'Timeout' },
    'timed out': { read: 'Timeout', write: 'Timeout' },
    'leader changed': { read: 'Timeout', write: 'Timeout' },
    'compacted': { read: 'ResourceVersionGone', write: 'ResourceVersionGone' },
    'no leader': { read: 'Unreachable', write: 'Unreachable' },
    'connection refused': { read: 'Unreachable', write: 'Unreachable' },
    'deadline exceeded': { read: 'Timeout', write: 'Timeout' },
    'permission denied': { read: 'EtcdRefused', write: 'EtcdRefused' },
  };

  for (const kind of etcdFailureKinds) {
    it(`translates "${kind}" for a read and for a write`, () => {
      for (const write of [false, true]) {
        const err = translateEtcdError(etcdError(kind), '/registry/x', write);
        expect(err).to.be.instanceOf(StorageError);
        expect((err as StorageError).code, `${kind} (${write ? 'write' : 'read'})`).to.equal(codes[kind][write ? 'write' : 'read']);
        expect((err as StorageError).key).to.equal('/registry/x');
      }
    });
  }

  it('keeps the message etcd gave, and says when a write\'s outcome is unknown', () => {
    const write = translateEtcdError(etcdError('timed out'), 'k', true);
    expect(write.message).to.equal('etcd did not confirm the write (14 UNAVAILABLE: etcdserver: request timed out): it may or may not have been applied');
    expect(translateEtcdError(etcdError('no leader'), 'k', true).message).to.equal('etcd unreachable: 14 UNAVAILABLE: etcdserver: no leader');
    // Any other refusal of etcd's own: its text alone, as etcd's Go client reports it.
    expect(translateEtcdError(etcdError('permission denied'), 'k', false).message).to.equal('etcdserver: permission denied');
  });

  it('knows etcd3\'s and cockatiel\'s failures by their class, whatever their message says', () => {
    const code = (err: Error, write: boolean) => (translateEtcdError(err, 'k', write) as StorageError).code;
    expect(code(new GRPCDeadlineExceededError('slow'), false)).to.equal('Timeout');
    expect(code(new GRPCUnavailableError('gone'), false)).to.equal('Unreachable');
    expect(code(new GRPCUnavailableError('gone'), true)).to.equal('Timeout');
    expect(code(new ClientClosedError('KV'), true)).to.equal('Unreachable');
    expect(code(new BrokenCircuitError(), true)).to.equal('Unreachable');
  });

  it('leaves other errors as they are, and a StorageError untouched', () => {
    const other = new Error('etcdserver: mvcc: database space exceeded');
    expect(translateEtcdError(other, 'k', true)).to.equal(other);
    const translated = new StorageError('KeyExists', 'k', 'key exists');
    expect(translateEtcdError(translated, 'k', true)).to.equal(translated);
  });
});
