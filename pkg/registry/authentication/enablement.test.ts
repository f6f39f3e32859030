import { expect } from 'chai';
import { versionEnabled } from './enablement.js';

describe('registry/authentication versionEnabled', () => {
  it('leaves authentication.k8s.io v1beta1 and v1alpha1 off unless --runtime-config turns them on', () => {
    expect(versionEnabled('authentication.k8s.io', 'v1', {})).to.equal(true);
    expect(versionEnabled('admissionregistration.k8s.io', 'v1beta1', {})).to.equal(false);
    expect(versionEnabled('admissionregistration.k8s.io', 'v1beta1', { 'admissionregistration.k8s.io/v1beta1': 'true' })).to.equal(true);
    expect(versionEnabled('admissionregistration.k8s.io', 'v1', {})).to.equal(true);
    expect(versionEnabled('authentication.k8s.io', 'v1beta1', {})).to.equal(false);
    expect(versionEnabled('authentication.k8s.io', 'v1beta1', { 'authentication.k8s.io/v1beta1': '' })).to.equal(true);
    expect(versionEnabled('authentication.k8s.io', 'v1alpha1', { 'api/alpha': 'true' })).to.equal(true);
    expect(versionEnabled('authentication.k8s.io', 'v1alpha1', { 'api/all': 'true', 'authentication.k8s.io/v1alpha1': 'false' })).to.equal(false);
    expect(versionEnabled('', 'v1', { 'api/v1': 'false' })).to.equal(false);
  });
});
