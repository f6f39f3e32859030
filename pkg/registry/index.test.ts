import { expect } from 'chai';
import { buildScheme } from './index.js';

describe('buildScheme', () => {
  const scheme = buildScheme();

  it('registers groups in upstream order', () => {
    expect(scheme.groups()).to.deep.equal(['', 'events.k8s.io', 'rbac.authorization.k8s.io', 'coordination.k8s.io']);
  });

  it('serves every declared resource', () => {
    const names = scheme.resources().map((d) => `${d.group}/${d.version}/${d.plural}`);
    expect(names).to.deep.equal([
      '/v1/configmaps', '/v1/events', '/v1/namespaces', '/v1/secrets', '/v1/serviceaccounts',
      'events.k8s.io/v1/events',
      'rbac.authorization.k8s.io/v1/clusterrolebindings', 'rbac.authorization.k8s.io/v1/clusterroles',
      'rbac.authorization.k8s.io/v1/rolebindings', 'rbac.authorization.k8s.io/v1/roles',
      'coordination.k8s.io/v1/leases',
    ]);
    expect(scheme.kind('rbac.authorization.k8s.io', 'v1', 'ClusterRole')?.plural).to.equal('clusterroles');
  });

  it('both event groups share one storage key segment', () => {
    expect(scheme.resource('', 'v1', 'events')?.storageResource).to.equal('events');
    expect(scheme.resource('events.k8s.io', 'v1', 'events')?.storageResource).to.equal('events');
  });
});
