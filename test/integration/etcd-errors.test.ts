// Every class of etcd call site, against a real etcd, with each of etcd's failures
// injected into the real client (pkg/storage/etcd/testing/faults.ts): the caller gets a
// translated StorageError, never etcd3's raw error, and a client gets upstream's Status
// for it (410 Expired for a compacted revision, 503 ServiceUnavailable with Retry-After
// when etcd could not take the request, 504 Timeout when etcd did not answer and a
// write's outcome is unknown), never a 500.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { testEtcdClient, testEtcdEndpoint, uniquePrefix } from '../harness/index.js';
import { guardEtcd } from '../../pkg/storage/etcd/boundary.js';
import { etcdFailureKinds, injectFaults, loseAnswers, type EtcdFailure, type FaultInjector } from '../../pkg/storage/etcd/testing/faults.js';
import { createEtcdClient } from '../../pkg/storage/etcd/client.js';
import { EtcdStorage } from '../../pkg/storage/etcd/store.js';
import { CachedStorage } from '../../pkg/storage/cacher/index.js';
import { compactTick } from '../../pkg/storage/etcd/compactor.js';
import { compactionQuestion } from '../../pkg/storage/etcd/compaction-question.js';
import { StorageError } from '../../pkg/storage/interfaces.js';
import { EtcdRangeAllocator } from '../../pkg/registry/core/services/allocator/etcd.js';
import { PortRange } from '../../pkg/registry/core/services/allocator/ranges.js';
import { MasterLeases } from '../../pkg/controller/kubernetesservice/masterleases.js';
import { toStatusError } from '../../pkg/registry/generic/storage-errors.js';
import { statusOf } from '../../pkg/endpoints/filters/errors.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

/** What a client gets for each failure, by whether the call was a read or a write. */
const expected: Record<EtcdFailure, { read: [number, string]; write: [number, string] }> = {
  'unavailable': { read: [503, 'ServiceUnavailable'], write: [504, 'Timeout'] },
  'timed out': { read: [504, 'Timeout'], write: [504, 'Timeout'] },
  'leader changed': { read: [504, 'Timeout'], write: [504, 'Timeout'] },
  'compacted': { read: [410, 'Expired'], write: [410, 'Expired'] },
  'no leader': { read: [503, 'ServiceUnavailable'], write: [503, 'ServiceUnavailable'] },
  'connection refused': { read: [503, 'ServiceUnavailable'], write: [503, 'ServiceUnavailable'] },
  'deadline exceeded': { read: [504, 'Timeout'], write: [504, 'Timeout'] },
  // Upstream passes it on uninterpreted: ErrorToAPIStatus's 500 without a reason.
  'permission denied': { read: [500, ''], write: [500, ''] },
};

const configmaps = { group: '', resource: 'configmaps' };

function cm(name: string, data: Record<string, string> = { a: '1' }): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${name}` }, data } as KubeObject;
}

interface Site {
  name: string;
  /** The etcd call that fails (etcd3's service and method) and whether it writes. */
  service: string; method: string; write: boolean;
  /** Runs the call site once (`setup`: a storage whose client has no faults); `viaRegistry` maps its error as the registry does. */
  run(client: Etcd3, n: number, setup: EtcdStorage): Promise<unknown>;
  viaRegistry?: boolean;
  /** Not run without a fault first (the compactor would compact the shared etcd for real). */
  faultsOnly?: boolean;
}

describe('etcd errors: translated at the client boundary for every call site', function () {
  this.timeout(60_000);
  let raw: Etcd3;
  let faults: FaultInjector;
  let client: Etcd3;
  let healthy: Etcd3;
  let setup: EtcdStorage;
  const prefix = uniquePrefix('etcd-errors');
  const key = (name: string) => `${prefix}/configmaps/default/${name}`;

  before(async () => {
    raw = await testEtcdClient();
    faults = injectFaults(raw);
    client = guardEtcd(raw);
    healthy = await testEtcdClient();
    setup = new EtcdStorage(healthy);
    for (const name of ['seed', 'stale']) await setup.create(key(name), cm(name));
  });
  afterEach(() => faults.clear());
  after(() => { raw?.close(); healthy?.close(); });

  const sites: Site[] = [
    { name: 'create', service: 'KV', method: 'txn', write: true, viaRegistry: true,
      run: (c, n) => new EtcdStorage(c).create(key(`new-${n}`), cm(`new-${n}`)) },
    { name: 'get', service: 'KV', method: 'range', write: false, viaRegistry: true,
      run: (c) => new EtcdStorage(c).get(key('seed')) },
    { name: 'list', service: 'KV', method: 'range', write: false, viaRegistry: true,
      run: (c) => new EtcdStorage(c).list(`${prefix}/configmaps/default`, {}) },
    { name: 'count', service: 'KV', method: 'range', write: false, viaRegistry: true,
      run: (c) => new EtcdStorage(c).count(`${prefix}/configmaps`) },
    { name: 'update (the write)', service: 'KV', method: 'txn', write: true, viaRegistry: true,
      run: (c, n) => new EtcdStorage(c).guaranteedUpdate(key('seed'), undefined, async (o) => ({ ...o, data: { n: String(n) } })) },
    { name: 'patch read-modify-write (re-read after a stale cached copy)', service: 'KV', method: 'range', write: false, viaRegistry: true,
      // A cached copy at an old revision whose patch changes nothing: only etcd's state decides, so it is read.
      run: (c) => new EtcdStorage(c).guaranteedUpdate(key('stale'), undefined, async () => null, false,
        { cachedExisting: { ...cm('stale'), metadata: { ...cm('stale').metadata, resourceVersion: '1' } } }) },
    { name: 'delete pre-read', service: 'KV', method: 'range', write: false, viaRegistry: true,
      run: async (c, n, s) => new EtcdStorage(c).delete(key((await s.create(key(`d-${n}`), cm(`d-${n}`))).metadata.name!)) },
    { name: 'delete (the write, from the cached copy)', service: 'KV', method: 'txn', write: true, viaRegistry: true,
      run: async (c, n, s) => {
        const created = await s.create(key(`dw-${n}`), cm(`dw-${n}`));
        return new EtcdStorage(c).delete(key(`dw-${n}`), undefined, undefined, created);
      } },
    { name: 'watch start', service: 'KV', method: 'range', write: false, viaRegistry: true,
      run: (c) => new EtcdStorage(c).watch(`${prefix}/configmaps/default`, { recursive: true }) },
    { name: 'lease for an expiring object', service: 'Lease', method: 'leaseGrant', write: true, viaRegistry: true,
      run: (c, n) => new EtcdStorage(c).create(key(`ttl-${n}`), cm(`ttl-${n}`), { ttlSeconds: 60 }) },
    { name: 'watch cache list from etcd', service: 'KV', method: 'range', write: false, viaRegistry: true,
      run: async (c) => {
        const cached = new CachedStorage(new EtcdStorage(c), c, () => `${prefix}/configmaps/`, { maxPending: 100 });
        try { return await cached.list(`${prefix}/configmaps/default`, { resourceVersion: '0' }); } finally { cached.stop(); }
      } },
    { name: 'watch cache consistent list (its freshness probe)', service: 'KV', method: 'txn', write: false, viaRegistry: true,
      run: async (c) => {
        const cached = new CachedStorage(new EtcdStorage(c), c, () => `${prefix}/configmaps/`, { maxPending: 100 });
        try { return await cached.list(`${prefix}/configmaps/default`, {}); } finally { cached.stop(); }
      } },
    { name: 'compaction question of a continue page', service: 'KV', method: compactionQuestion, write: false,
      run: async (c) => {
        const s = new EtcdStorage(c);
        return s.historyCompacted(Number(await s.currentRevision()) - 1);
      } },
    { name: 'compactor', service: 'KV', method: 'compact', write: true, faultsOnly: true,
      run: async (c) => compactTick(c, (await compactTick(c, { time: 0, revision: 0 })).state) },
    { name: 'allocator claim', service: 'KV', method: 'txn', write: true,
      run: (c, n) => new EtcdRangeAllocator(c, `${prefix}/ranges/ports`, new PortRange(30000, 100), 'provided port is already allocated').allocate(n % 100, 'test') },
    { name: 'allocator scan', service: 'KV', method: 'range', write: false,
      run: (c) => new EtcdRangeAllocator(c, `${prefix}/ranges/ports`, new PortRange(30000, 100), 'x').read() },
    { name: 'master lease', service: 'Lease', method: 'leaseGrant', write: true,
      run: (c) => new MasterLeases(c, prefix, 15, 'application/json').update('10.0.0.1') },
    { name: 'leader election', service: 'Lease', method: 'leaseGrant', write: true,
      run: async (c, n) => (await c.election(`${prefix}/election-${n}`, 5).campaign('me').wait()).resign() },
    { name: 'object counter (a builder)', service: 'KV', method: 'range', write: false,
      run: (c) => c.getAll().prefix(`${prefix}/configmaps/`).count() },
  ];

  let n = 0;
  for (const site of sites) {
    it(`${site.name}: each etcd failure becomes a StorageError and upstream's Status`, async function () {
      // The call site works when etcd does (so the injected failure is what fails it).
      if (!site.faultsOnly) {
        const ok = await site.run(client, n++, setup);
        if (ok && typeof ok === 'object' && 'stop' in ok) (ok as { stop(): void }).stop();
      }
      for (const kind of etcdFailureKinds) {
        faults.fail(site.service, site.method, kind, 1000);
        const before = faults.injected;
        let answer: unknown;
        const err = await site.run(client, n++, setup).then((a) => { answer = a; }, (e: unknown) => e);
        faults.clear();
        expect(faults.injected, `${kind}: the injected failure was reached`).to.be.greaterThan(before);
        // The compactor swallows "already compacted": nothing was lost.
        if (site.name === 'compactor' && kind === 'compacted') { expect(err).to.equal(undefined); continue; }
        // Compacted is the question's answer, not a failure.
        if (site.method === compactionQuestion && kind === 'compacted') { expect(answer).to.equal(true); continue; }
        expect(err, `${kind}: ${String(err)}`).to.be.instanceOf(StorageError);
        const status = statusOf(site.viaRegistry ? toStatusError(err, configmaps, 'x') : err);
        const [code, reason] = expected[kind][site.write ? 'write' : 'read'];
        expect([status.code, status.reason], `${kind}: ${status.message}`).to.deep.equal([code, reason]);
        if (code === 503) expect(status.headers['Retry-After']).to.equal('2');
        if (code === 504 && site.write && kind !== 'compacted') expect(status.message).to.match(/may or may not have been applied/);
      }
    });
  }

  it('the watch cache lists again after a failed first list, instead of failing every read', async () => {
    const cached = new CachedStorage(new EtcdStorage(client), client, () => `${prefix}/configmaps/`, { maxPending: 100 });
    try {
      faults.fail('KV', 'range', 'connection refused');
      const err = await cached.list(`${prefix}/configmaps/default`, { resourceVersion: '0' }).then(() => undefined, (e: unknown) => e);
      expect(statusOf(toStatusError(err, configmaps, '')).code).to.equal(503);
      const listed = await cached.list(`${prefix}/configmaps/default`, { resourceVersion: '0' });
      expect(listed.items.map((o) => o.metadata.name)).to.include('seed');
    } finally {
      cached.stop();
    }
  });

  it('a real refused connection and etcd3\'s circuit breaker after it are a 503', async () => {
    const { Etcd3: Client } = await import('etcd3');
    const down = guardEtcd(new Client({ hosts: '127.0.0.1:1' }));
    try {
      for (let i = 0; i < 2; i++) {
        const err = await new EtcdStorage(down).get('/x').then(() => undefined, (e: unknown) => e);
        expect(err, String(err)).to.be.instanceOf(StorageError);
        const status = statusOf(toStatusError(err, configmaps, 'x'));
        expect([status.code, status.reason], status.message).to.deep.equal([503, 'ServiceUnavailable']);
      }
    } finally {
      down.close();
    }
  });

  it('a write whose answer is lost after etcd applied it is not sent again (504, not 409 for its own object); a read is retried', async () => {
    const endpoint = await testEtcdEndpoint();
    const conn = createEtcdClient({ endpoints: [endpoint.includes('://') ? endpoint : `http://${endpoint}`], tls: {} }, { warn: () => undefined, info: () => undefined });
    const lost = loseAnswers(conn.client);
    const store = new EtcdStorage(guardEtcd(conn.client));
    try {
      lost.lose('KV', 'txn');
      const err = await store.create(key('lost-answer'), cm('lost-answer')).then(() => undefined, (e: unknown) => e);
      // etcd3's default policy sent the txn again: it found the key its first try wrote and the client got 409 AlreadyExists.
      expect(lost.sent('KV', 'txn'), 'the create transaction was sent more than once').to.equal(1);
      const status = statusOf(toStatusError(err, configmaps, 'lost-answer'));
      expect([status.code, status.reason], status.message).to.deep.equal([504, 'Timeout']);
      expect((await setup.get(key('lost-answer'))).metadata.name, 'etcd applied the write').to.equal('lost-answer');

      lost.lose('KV', 'range');
      expect((await store.get(key('seed'))).metadata.name).to.equal('seed');
      expect(lost.sent('KV', 'range'), 'a read whose answer was lost is sent again').to.equal(2);
    } finally {
      conn.close();
    }
  });
});
