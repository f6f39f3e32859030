import { expect } from 'chai';
import { attrs, rejection } from '../../test-attributes.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { NamespaceSource } from '../namespacelifecycle/index.js';
import { NamespaceExists } from './index.js';

function source(cache: string[], live: string[] = cache, synced = true): NamespaceSource & { lookups: string[] } {
  const lookups: string[] = [];
  const ns = (name: string): KubeObject => ({ metadata: { name } });
  return {
    lookups,
    cached: (n) => (cache.includes(n) ? ns(n) : undefined),
    waitForSync: async () => synced,
    live: async (n) => { lookups.push(n); if (n === 'broken') throw new Error('etcd down'); return live.includes(n) ? ns(n) : undefined; },
  };
}

describe('NamespaceExists', () => {
  it('validates creates, updates and deletes', () => {
    const p = new NamespaceExists(source([]));
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((o) => p.handles(o as 'CREATE'))).to.deep.equal([true, true, true, false]);
  });

  it('answers 404 for the namespace when neither cache nor storage has it', async () => {
    const s = source([]);
    const err = await rejection(new NamespaceExists(s).validate(attrs({})));
    expect(err.code).to.equal(404);
    expect(err.reason).to.equal('NotFound');
    expect(err.message).to.equal('namespaces "team" not found');
    expect(err.details).to.include({ name: 'team', kind: 'namespaces' });
    expect(s.lookups).to.deep.equal(['team']);
  });

  it('admits when the cache has it, and asks storage when the cache lags', async () => {
    const cached = source(['team']);
    await new NamespaceExists(cached).validate(attrs({}));
    expect(cached.lookups).to.deep.equal([]);
    const lagging = source([], ['team']);
    await new NamespaceExists(lagging).validate(attrs({}));
    expect(lagging.lookups).to.deep.equal(['team']);
  });

  it('ignores cluster-scoped requests and namespaces themselves', async () => {
    const p = new NamespaceExists(source([]));
    await p.validate(attrs({ namespace: '', resource: 'nodes', kind: 'Node' }));
    await p.validate(attrs({ namespace: 'team', resource: 'namespaces', kind: 'Namespace' }));
  });

  it('answers 500 when storage fails, 403 before the cache synced', async () => {
    const err = await rejection(new NamespaceExists(source([])).validate(attrs({ namespace: 'broken' })));
    expect(err.code).to.equal(500);
    expect(err.message).to.equal('Internal error occurred: etcd down');
    const early = await rejection(new NamespaceExists(source([], [], false)).validate(attrs({})));
    expect(early.code).to.equal(403);
    expect(early.message).to.equal('configmaps "obj" is forbidden: not yet ready to handle request');
  });
});
