import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { NamespaceLifecycle, type NamespaceSource } from './index.js';

const ns = (name: string, phase = 'Active'): KubeObject => ({ metadata: { name }, status: { phase } });

function source(cache: Record<string, KubeObject>, live: Record<string, KubeObject> = cache): NamespaceSource & { liveLookups: string[] } {
  const liveLookups: string[] = [];
  return {
    liveLookups,
    cached: (name) => cache[name],
    waitForSync: async () => true,
    hasSynced: () => true,
    live: async (name) => { liveLookups.push(name); return live[name]; },
  };
}

function attrs(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'ConfigMap', resource: 'configmaps', subresource: '',
    namespace: 'team', name: 'cm', user: { name: 'u', groups: [] }, dryRun: false, ...over,
  };
}

async function rejection(p: Promise<void> | void): Promise<StatusError> {
  try { await p; } catch (e) { return e as StatusError; }
  throw new Error('admitted');
}

describe('NamespaceLifecycle', () => {
  it('refuses deleting default, kube-system and kube-public', async () => {
    const plugin = new NamespaceLifecycle(source({}));
    const err = await rejection(plugin.admit(attrs({ operation: 'DELETE', kind: 'Namespace', resource: 'namespaces', namespace: '', name: 'kube-public' })));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('namespaces "kube-public" is forbidden: this namespace may not be deleted');
    await plugin.admit(attrs({ operation: 'DELETE', kind: 'Namespace', resource: 'namespaces', namespace: '', name: 'team' }));
  });

  it('answers 404 for a namespace neither the cache nor storage has', async () => {
    const s = source({});
    const err = await rejection(new NamespaceLifecycle(s).admit(attrs({})));
    expect(err.code).to.equal(404);
    expect(err.message).to.equal('namespaces "team" not found');
    expect(s.liveLookups).to.deep.equal(['team']);
  });

  it('refuses creates in a terminating namespace, with the NamespaceTerminating cause; allows updates and deletes', async () => {
    const plugin = new NamespaceLifecycle(source({ team: ns('team', 'Terminating') }));
    const err = await rejection(plugin.admit(attrs({ name: '', object: { metadata: { name: 'gen' } } })));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('configmaps "gen" is forbidden: unable to create new content in namespace team because it is being terminated');
    expect(err.details?.causes).to.deep.equal([{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }]);
    await plugin.admit(attrs({ operation: 'UPDATE' }));
    await plugin.admit(attrs({ operation: 'DELETE' }));
  });

  it('checks storage after a namespace delete passed through it, even when the cache says Active', async () => {
    const s = source({ team: ns('team') }, { team: ns('team', 'Terminating') });
    const plugin = new NamespaceLifecycle(s);
    await plugin.admit(attrs({}));
    expect(s.liveLookups).to.deep.equal([]);
    await plugin.admit(attrs({ operation: 'DELETE', kind: 'Namespace', resource: 'namespaces', namespace: '', name: 'team' }));
    const err = await rejection(plugin.admit(attrs({})));
    expect(err.code).to.equal(403);
  });

  it('decides a write in an Active namespace of the synced cache at once; without its sync state, after waiting', async () => {
    const synced = source({ team: ns('team') });
    expect(new NamespaceLifecycle(synced).admit(attrs({}))).to.equal(undefined);
    expect(new NamespaceLifecycle(synced).admit(attrs({ operation: 'UPDATE' }))).to.equal(undefined);
    const unknown: NamespaceSource = { ...synced, hasSynced: undefined };
    const pending = new NamespaceLifecycle(unknown).admit(attrs({}));
    expect(pending).to.be.instanceOf(Promise);
    await pending;
    expect(synced.liveLookups).to.deep.equal([]);
  });

  it('ignores cluster-scoped objects', async () => {
    await new NamespaceLifecycle(source({})).admit(attrs({ namespace: '', kind: 'ClusterRole', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' }));
  });
});
