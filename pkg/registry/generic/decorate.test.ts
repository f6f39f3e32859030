import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { markShared, sharedEncoding } from '../../runtime/serializer/shared-encodings.js';
import type { Storage } from '../../storage/interfaces.js';
import type { StoreDef } from './store-def.js';
import { GenericStore } from './store.js';

describe('GenericStore.decorate', () => {
  let defaulted: KubeObject[] = [];
  const def = {
    group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true,
    strategy: { applyDefaults: (o: KubeObject) => { defaulted.push(o); } },
  } as unknown as StoreDef;
  const store = new GenericStore(def, {} as Storage, '/registry');
  beforeEach(() => { defaulted = []; });

  it('puts apiVersion and kind first with the endpoint\'s values, the rest in the object\'s order', () => {
    const obj = { data: { a: 'b' }, kind: 'Other', metadata: { name: 'x' }, apiVersion: 'old/v0', immutable: true } as unknown as KubeObject;
    const view = store.decorate(obj);
    expect(Object.keys(view)).to.deep.equal(['apiVersion', 'kind', 'data', 'metadata', 'immutable']);
    expect(JSON.stringify(view)).to.equal('{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"},"metadata":{"name":"x"},"immutable":true}');
    expect(Object.keys(store.decorate({ metadata: {} }))).to.deep.equal(['apiVersion', 'kind', 'metadata']);
    // The object itself is left as it was, but for its defaults.
    expect(obj.kind).to.equal('Other');
  });

  it('defaults the object, a shared one once for all its reads; a view of a shared one reuses its encodings', () => {
    const own = { metadata: { name: 'x' } } as KubeObject;
    store.decorate(own);
    expect(defaulted).to.deep.equal([own]);
    defaulted = [];
    const shared = markShared({ metadata: { name: 'y' }, data: { k: 'v' } } as KubeObject);
    const first = store.decorate(shared);
    const second = store.decorate(shared);
    expect(defaulted).to.deep.equal([shared]);
    let encodes = 0;
    const encode = (item: Record<string, unknown>) => { encodes++; return JSON.stringify(item); };
    expect(sharedEncoding(first, 'json', encode)?.toString()).to.equal(JSON.stringify(first));
    expect(sharedEncoding(second, 'json', encode)?.toString()).to.equal(JSON.stringify(first));
    expect(encodes).to.equal(1);
    expect(sharedEncoding(store.decorate(own), 'json', encode)).to.equal(undefined);
  });
});
