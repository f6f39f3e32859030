import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { testEtcdClient, uniquePrefix } from '../../../test/harness/index.js';
import { AdmissionChain } from '../../admission/interfaces.js';
import type { KubeObject } from '../../runtime/object.js';
import { EtcdStorage } from '../../storage/etcd/store.js';
import type { Storage } from '../../storage/interfaces.js';
import { buildScheme } from '../index.js';
import { StoreRegistry } from './registry.js';
import { ownedResults, type RequestScope, type UpdatedObjectInfo } from './store-interfaces.js';

/**
 * An update whose first pass starts from an out-of-date copy (the watch cache behind etcd)
 * is written by its second pass, from etcd's state: that pass must start from what the
 * caller computes, not from what the first pass made of it (its resourceVersion, managed
 * fields), whether the store copies the caller's object or the caller hands it a new one.
 */
describe('generic store: an update retried after a stale starting copy', function () {
  this.timeout(30_000);
  let client: Etcd3;
  const scheme = buildScheme();
  const scope = (fieldManager?: string): RequestScope => ({ user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, admission: new AdmissionChain(), fieldManager });

  before(async () => { client = await testEtcdClient(); });
  after(() => client?.close());

  /** A ConfigMap store whose updates start from `stale` (the object as first written). */
  const setup = async (name: string, manager: string | undefined) => {
    const etcd = new EtcdStorage(client);
    let stale: KubeObject | undefined;
    const storage = new Proxy(etcd, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'guaranteedUpdate') return typeof v === 'function' ? v.bind(target) : v;
        return (key: string, pre: unknown, tryUpdate: unknown, ignoreNotFound: boolean, opts: object) =>
          target.guaranteedUpdate(key, undefined, tryUpdate as never, ignoreNotFound, { ...opts, cachedExisting: stale });
      },
    }) as Storage;
    const store = new StoreRegistry(scheme, storage, uniquePrefix('upd-retry')).store('', 'configmaps');
    stale = await store.create('ns', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { a: '1' } }, scope(manager));
    // etcd moves on: the copy updates start from is now one write behind.
    await store.update('ns', name, () => ({ ...stale!, data: { a: '2' } }), scope(manager));
    return store;
  };

  const body = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { a: '3' } });

  const cases: Array<[string, (o: KubeObject) => UpdatedObjectInfo]> = [
    ['the same object each pass (the store copies it)', (o) => () => o],
    ['a new object each pass (ownedResults)', (o) => ownedResults(() => structuredClone(o))],
  ];
  for (const [what, objInfoFor] of cases) for (const manager of [undefined, 'tester']) {
    it(`writes from etcd's state with ${what}, ${manager ? 'with' : 'without'} managed fields`, async () => {
      const name = `cm-${cases.findIndex((c) => c[0] === what)}-${manager ?? 'none'}`;
      const store = await setup(name, manager);
      let passes = 0;
      const compute = objInfoFor(body(name));
      const objInfo: UpdatedObjectInfo = Object.assign((cur: KubeObject | null) => { passes++; return compute(cur); }, { ownsResult: compute.ownsResult });
      const res = await store.update('ns', name, objInfo, scope(manager));
      expect(passes).to.equal(2);
      expect(res.object.data).to.deep.equal({ a: '3' });
      const stored = await store.get('ns', name);
      expect(stored.metadata.resourceVersion).to.equal(res.object.metadata.resourceVersion);
      expect(stored.data).to.deep.equal({ a: '3' });
      if (manager) expect(stored.metadata.managedFields?.map((m) => m.manager)).to.deep.equal([manager]);
    });
  }
});
