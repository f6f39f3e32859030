import { expect } from 'chai';
import { buildScheme } from './index.js';
import { storageSegment } from '../runtime/scheme.js';

describe('buildScheme', () => {
  const scheme = buildScheme();

  it('registers groups in upstream order', () => {
    expect(scheme.groups()).to.deep.equal(['', 'apiregistration.k8s.io', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'certificates.k8s.io', 'rbac.authorization.k8s.io', 'admissionregistration.k8s.io', 'coordination.k8s.io']);
  });

  it('serves every declared resource', () => {
    const names = scheme.resources().map((d) => `${d.group}/${d.version}/${d.plural}`);
    expect(names).to.deep.equal([
      '/v1/configmaps', '/v1/events', '/v1/namespaces', '/v1/secrets', '/v1/serviceaccounts',
      'apiregistration.k8s.io/v1/apiservices',
      'events.k8s.io/v1/events',
      'authentication.k8s.io/v1/selfsubjectreviews', 'authentication.k8s.io/v1/tokenreviews',
      'authorization.k8s.io/v1/localsubjectaccessreviews', 'authorization.k8s.io/v1/selfsubjectaccessreviews',
      'authorization.k8s.io/v1/selfsubjectrulesreviews', 'authorization.k8s.io/v1/subjectaccessreviews',
      'certificates.k8s.io/v1/certificatesigningrequests',
      'rbac.authorization.k8s.io/v1/clusterrolebindings', 'rbac.authorization.k8s.io/v1/clusterroles',
      'rbac.authorization.k8s.io/v1/rolebindings', 'rbac.authorization.k8s.io/v1/roles',
      'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
      'admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      'coordination.k8s.io/v1/leases',
    ]);
    expect(scheme.kind('rbac.authorization.k8s.io', 'v1', 'ClusterRole')?.plural).to.equal('clusterroles');
  });

  it('both event groups share one storage key segment', () => {
    // Both Event kinds are one set of objects in etcd; built-in groups key by plural alone, as upstream.
    expect(storageSegment(scheme.resource('', 'v1', 'events')!)).to.equal('events');
    expect(storageSegment(scheme.resource('events.k8s.io', 'v1', 'events')!)).to.equal('events');
    expect(storageSegment(scheme.resource('', 'v1', 'configmaps')!)).to.equal('configmaps');
    expect(storageSegment(scheme.resource('rbac.authorization.k8s.io', 'v1', 'roles')!)).to.equal('roles');
    expect(storageSegment(scheme.resource('coordination.k8s.io', 'v1', 'leases')!)).to.equal('leases');
  });
});
