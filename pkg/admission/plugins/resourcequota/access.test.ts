import { expect } from 'chai';
import type { KubeObject } from '../../../runtime/object.js';
import type { UpdatedObjectInfo } from '../../../registry/generic/store.js';
import { parseResourceList } from '../../../quota/resources.js';
import { quotaAccess } from './access.js';

const quota = (name: string, rv: string, used = '0'): KubeObject => ({
  metadata: { name, namespace: 'ns', resourceVersion: rv }, spec: { hard: { pods: '5' } }, status: { hard: { pods: '5' }, used: { pods: used } },
});

/** A quotas store that counts its reads and keeps one object per name. */
function fakeStore(initial: KubeObject[]) {
  const objects = new Map(initial.map((q) => [q.metadata.name!, q]));
  let rv = 100;
  const s = {
    lists: 0,
    objects,
    groupResource: { group: '', resource: 'resourcequotas' },
    async list() { s.lists++; await new Promise((r) => setImmediate(r)); return { items: [...objects.values()].map((o) => structuredClone(o)), resourceVersion: String(rv) }; },
    async update(_ns: string, name: string, info: UpdatedObjectInfo) {
      const next = await info(objects.get(name) ?? null);
      next.metadata = { ...next.metadata, resourceVersion: String(++rv) };
      objects.set(name, next);
      return { object: next, created: false };
    },
  };
  return s;
}

describe('quota admission reads (upstream quotaAccessor)', () => {
  it('reads the informer, not storage, when it holds quotas', async () => {
    const store = fakeStore([quota('q', '1')]);
    const access = quotaAccess(store as never, { list: async () => [quota('q', '1')] });
    expect((await access.list('ns')).map((q) => q.metadata.name)).to.deep.equal(['q']);
    expect(store.lists).to.equal(0);
  });

  it('with none in the informer, one live list per namespace stands for a while, shared by concurrent reads', async () => {
    const store = fakeStore([quota('q', '1')]);
    const access = quotaAccess(store as never, { list: async () => [] });
    const [a, b] = await Promise.all([access.list('ns'), access.list('ns')]);
    expect(a.map((q) => q.metadata.name)).to.deep.equal(['q']);
    expect(b).to.have.length(1);
    await access.list('ns');
    expect(store.lists).to.equal(1);
    await access.fresh('ns');
    expect(store.lists).to.equal(2);
  });

  it('knows at once that a namespace has no quota only once a live lookup found none, while it stands', async () => {
    const empty = fakeStore([]);
    let synced = false;
    const access = quotaAccess(empty as never, { list: async () => [], listNow: () => (synced ? [] : undefined) });
    expect(access.noneNow!('ns')).to.equal(false);
    synced = true;
    expect(access.noneNow!('ns')).to.equal(false);
    expect(await access.list('ns')).to.deep.equal([]);
    expect(access.noneNow!('ns')).to.equal(true);
    const withQuota = quotaAccess(fakeStore([quota('q', '1')]) as never, { list: async () => [], listNow: () => [] });
    expect(await withQuota.list('ns')).to.have.length(1);
    expect(withQuota.noneNow!('ns')).to.equal(false);
    const inInformer = quotaAccess(empty as never, { list: async () => [quota('q', '1')], listNow: () => [quota('q', '1')] });
    expect(inInformer.noneNow!('ns')).to.equal(false);
  });

  it("serves the version it charged over the informer's older copy", async () => {
    const store = fakeStore([quota('q', '1')]);
    const access = quotaAccess(store as never, { list: async () => [quota('q', '1')] });
    await access.updateUsed({ namespace: 'ns', name: 'q', resourceVersion: '1' } as never, parseResourceList({ pods: '1' }));
    const [q] = await access.list('ns');
    expect(q!.metadata.resourceVersion).to.equal('101');
    expect((q!.status as { used: Record<string, string> }).used).to.deep.equal({ pods: '1' });
  });
});
