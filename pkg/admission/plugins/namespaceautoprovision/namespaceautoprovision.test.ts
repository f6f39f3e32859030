import { expect } from 'chai';
import { attrs, rejection } from '../../test-attributes.js';
import { errors } from '../../../runtime/errors.js';
import { NamespaceAutoProvision, type NamespaceProvisioner } from './index.js';

function provisioner(existing: string[], fail?: Error): NamespaceProvisioner & { created: string[] } {
  const created: string[] = [];
  return {
    created,
    cached: (n) => (existing.includes(n) ? { metadata: { name: n } } : undefined),
    waitForSync: async () => true,
    create: async (n) => { if (fail) throw fail; created.push(n); },
  };
}

describe('NamespaceAutoProvision', () => {
  it('admits creates only', () => {
    const p = new NamespaceAutoProvision(provisioner([]));
    expect([p.handles('CREATE'), p.handles('UPDATE'), p.handles('DELETE')]).to.deep.equal([true, false, false]);
  });

  it('creates the missing namespace of a namespaced create', async () => {
    const n = provisioner([]);
    await new NamespaceAutoProvision(n).admit(attrs({}));
    expect(n.created).to.deep.equal(['team']);
  });

  it('does nothing when the namespace exists, for dry runs, cluster-scoped objects and namespaces', async () => {
    const n = provisioner(['team']);
    const p = new NamespaceAutoProvision(n);
    await p.admit(attrs({}));
    const m = provisioner([]);
    const q = new NamespaceAutoProvision(m);
    await q.admit(attrs({ dryRun: true }));
    await q.admit(attrs({ namespace: '', resource: 'nodes', kind: 'Node' }));
    await q.admit(attrs({ namespace: 'x', resource: 'namespaces', kind: 'Namespace' }));
    expect([n.created, m.created]).to.deep.equal([[], []]);
  });

  it('takes a namespace someone else just created as success; other failures are 403', async () => {
    await new NamespaceAutoProvision(provisioner([], errors.alreadyExists({ group: '', resource: 'namespaces' }, 'team'))).admit(attrs({}));
    const err = await rejection(new NamespaceAutoProvision(provisioner([], new Error('boom'))).admit(attrs({})));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('configmaps "obj" is forbidden: boom');
  });
});
