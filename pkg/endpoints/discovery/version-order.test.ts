import { expect } from 'chai';
import { sortKubeAwareVersions } from '../../runtime/version-order.js';
import { sortGroups, sortVersions } from '../../apis/apiregistration/priorities.js';
import { storageVersionHash } from './storage-version-hash.js';

describe('pkg/endpoints/discovery ordering', function () {
  it('orders versions GA, beta, alpha, then non-kube strings alphabetically', function () {
    expect(sortKubeAwareVersions(['foo', 'v1alpha1', 'v1beta1', 'v2', 'v1', 'v11alpha2', 'v12alpha1', 'v1beta2', 'bar', 'v10'])).to.deep.equal(
      ['v10', 'v2', 'v1', 'v1beta2', 'v1beta1', 'v12alpha1', 'v11alpha2', 'v1alpha1', 'bar', 'foo'],
    );
  });
  it('uses the built-in version priorities (autoscaling v2 before v1)', function () {
    expect(sortVersions('autoscaling', ['v1', 'v2'])).to.deep.equal(['v2', 'v1']);
    expect(sortVersions('flowcontrol.apiserver.k8s.io', ['v1beta2', 'v1beta3'])).to.deep.equal(['v1beta3', 'v1beta2']);
    expect(sortVersions('unknown.dev', ['v1alpha1', 'v1', 'v2beta1'])).to.deep.equal(['v1', 'v2beta1', 'v1alpha1']);
  });
  it('orders groups by priority then name', function () {
    expect(sortGroups(['zeta.dev', 'rbac.authorization.k8s.io', 'apps', 'alpha.dev', 'apiregistration.k8s.io', 'events.k8s.io'])).to.deep.equal(
      ['apiregistration.k8s.io', 'apps', 'events.k8s.io', 'rbac.authorization.k8s.io', 'alpha.dev', 'zeta.dev'],
    );
  });
  it('computes upstream storage version hashes', function () {
    expect(storageVersionHash('', 'v1', 'Pod')).to.equal('xPOwRZ+Yhw8=');
    expect(storageVersionHash('rbac.authorization.k8s.io', 'v1', 'RoleBinding')).to.equal('eGsCzGH6b1g=');
    expect(storageVersionHash('', 'v1', '')).to.equal('');
  });
});
