import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { testEtcdClient, uniquePrefix } from '../../../test/harness/index.js';
import { AdmissionChain } from '../../admission/interfaces.js';
import { EtcdStorage } from '../../storage/etcd/store.js';
import type { Storage } from '../../storage/interfaces.js';
import { buildScheme } from '../index.js';
import { StoreRegistry } from './registry.js';
import type { RequestScope } from './store-interfaces.js';

/** Etcd storage whose deletes take 30 ms each and count how many run at once. */
function countingDeletes(inner: Storage): { storage: Storage; maxInFlight(): number } {
  let inFlight = 0;
  let max = 0;
  const storage = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'delete' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return async (...args: unknown[]) => {
        max = Math.max(max, ++inFlight);
        try {
          await new Promise((r) => setTimeout(r, 30));
          return await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          inFlight--;
        }
      };
    },
  });
  return { storage, maxInFlight: () => max };
}

describe('DeleteCollection with --delete-collection-workers', function () {
  this.timeout(30_000);
  let client: Etcd3;
  const scheme = buildScheme();
  const scope: RequestScope = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, admission: new AdmissionChain() };

  before(async () => { client = await testEtcdClient(); });
  after(() => client?.close());

  /** Deletes 12 ConfigMaps of a namespace with `workers`; what was deleted and the most deletes in flight. */
  const sweep = async (workers: number) => {
    const { storage, maxInFlight } = countingDeletes(new EtcdStorage(client));
    const store = new StoreRegistry(scheme, storage, uniquePrefix('delcol'), { deleteCollectionWorkers: workers }).store('', 'configmaps');
    const names = Array.from({ length: 12 }, (_, i) => `cm-${String(i).padStart(2, '0')}`);
    for (const name of names) {
      await storage.create(store.key('ns', name), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `uid-${name}` }, data: { a: name } });
    }
    await storage.create(store.key('other', 'kept'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept', namespace: 'other', uid: 'uid-kept' } });
    const deleted = await store.deleteCollection('ns', {}, {}, scope);
    return { deleted: deleted.items.map((i) => i.metadata.name), left: (await store.list('', {})).items.map((i) => i.metadata.name), max: maxInFlight(), names };
  };

  it('deletes every item with that many deletes at a time, and nothing outside the selection', async () => {
    const four = await sweep(4);
    expect(four.deleted).to.deep.equal(four.names);
    expect(four.left).to.deep.equal(['kept']);
    expect(four.max).to.equal(4);
    const one = await sweep(1);
    expect(one.deleted).to.deep.equal(one.names);
    expect(one.left).to.deep.equal(['kept']);
    expect(one.max).to.equal(1);
  });
});
