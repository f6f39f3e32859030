import { expect } from 'chai';
import { buildScheme } from './index.js';
import { storageSegment } from '../runtime/scheme.js';

describe('buildScheme', () => {
  const scheme = buildScheme();

  it('registers groups in upstream order', () => {
    expect(scheme.groups()).to.deep.equal(['', 'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io',
      'autoscaling', 'batch', 'certificates.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io',
      'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io',
      'flowcontrol.apiserver.k8s.io',
      // Beyond upstream, after every upstream group.
      'authorization.openshift.io', 'history.apiserver.k8s-ts.io']);
  });

  it('serves every declared resource', () => {
    const names = scheme.resources().map((d) => `${d.group}/${d.version}/${d.plural}`);
    expect(names).to.deep.equal([
      '/v1/bindings', '/v1/componentstatuses', '/v1/configmaps', '/v1/endpoints', '/v1/events', '/v1/limitranges', '/v1/namespaces', '/v1/nodes', '/v1/persistentvolumeclaims',
      '/v1/persistentvolumes', '/v1/pods', '/v1/podtemplates', '/v1/replicationcontrollers', '/v1/resourcequotas', '/v1/secrets', '/v1/serviceaccounts', '/v1/services',
      'apiregistration.k8s.io/v1/apiservices',
      'apps/v1/controllerrevisions', 'apps/v1/daemonsets', 'apps/v1/deployments', 'apps/v1/replicasets', 'apps/v1/statefulsets',
      'events.k8s.io/v1/events',
      'authentication.k8s.io/v1/selfsubjectreviews', 'authentication.k8s.io/v1/tokenreviews',
      'authorization.k8s.io/v1/localsubjectaccessreviews', 'authorization.k8s.io/v1/selfsubjectaccessreviews',
      'authorization.k8s.io/v1/selfsubjectrulesreviews', 'authorization.k8s.io/v1/subjectaccessreviews',
      'autoscaling/v2/horizontalpodautoscalers', 'autoscaling/v1/horizontalpodautoscalers',
      'batch/v1/cronjobs', 'batch/v1/jobs',
      'certificates.k8s.io/v1/certificatesigningrequests',
      'networking.k8s.io/v1/ingressclasses', 'networking.k8s.io/v1/ingresses', 'networking.k8s.io/v1/networkpolicies',
      'policy/v1/poddisruptionbudgets',
      'rbac.authorization.k8s.io/v1/clusterrolebindings', 'rbac.authorization.k8s.io/v1/clusterroles',
      'rbac.authorization.k8s.io/v1/rolebindings', 'rbac.authorization.k8s.io/v1/roles',
      'storage.k8s.io/v1/csidrivers', 'storage.k8s.io/v1/csinodes', 'storage.k8s.io/v1/csistoragecapacities',
      'storage.k8s.io/v1/storageclasses', 'storage.k8s.io/v1/volumeattachments',
      'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
      'admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      'apiextensions.k8s.io/v1/customresourcedefinitions',
      'scheduling.k8s.io/v1/priorityclasses',
      'coordination.k8s.io/v1/leases',
      'node.k8s.io/v1/runtimeclasses',
      'discovery.k8s.io/v1/endpointslices',
      'flowcontrol.apiserver.k8s.io/v1beta3/flowschemas', 'flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
      'flowcontrol.apiserver.k8s.io/v1beta2/flowschemas', 'flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations',
      'authorization.openshift.io/v1/localresourceaccessreviews', 'authorization.openshift.io/v1/resourceaccessreviews',
      'history.apiserver.k8s-ts.io/v1/objecthistories',
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
    expect(storageSegment(scheme.resource('', 'v1', 'replicationcontrollers')!)).to.equal('controllers');
    expect(storageSegment(scheme.resource('apps', 'v1', 'deployments')!)).to.equal('deployments');
    expect(storageSegment(scheme.resource('', 'v1', 'endpoints')!)).to.equal('services/endpoints');
    expect(storageSegment(scheme.resource('discovery.k8s.io', 'v1', 'endpointslices')!)).to.equal('endpointslices');
  });
});
