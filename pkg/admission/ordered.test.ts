import { expect } from 'chai';
import { enabledAdmissionPlugins, orderedAdmissionPlugins } from './ordered.js';

describe('admission plugin selection (ordered.ts)', () => {
  it('turns on upstream v1.28\'s default set, in upstream\'s order, when no flag is given', () => {
    expect(enabledAdmissionPlugins([], [])).to.deep.equal([
      'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority',
      'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection',
      'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning',
      'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
      'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
    ]);
  });

  it('places enabled plugins by the fixed table, not by the flag\'s order', () => {
    const on = enabledAdmissionPlugins(['AlwaysDeny', 'NodeRestriction', 'AlwaysAdmit'], ['ResourceQuota']);
    expect(on[0]).to.equal('AlwaysAdmit');
    expect(on.at(-1)).to.equal('AlwaysDeny');
    expect(on.indexOf('NodeRestriction')).to.equal(on.indexOf('ServiceAccount') + 1);
    expect(on).to.not.include('ResourceQuota');
  });

  it('disables default plugins', () => {
    expect(enabledAdmissionPlugins([], ['NamespaceLifecycle', 'PodSecurity'])).to.not.include.members(['NamespaceLifecycle', 'PodSecurity']);
  });

  it('refuses a plugin that is both enabled and disabled', () => {
    expect(() => enabledAdmissionPlugins(['NodeRestriction', 'AlwaysDeny'], ['AlwaysDeny', 'NodeRestriction']))
      .to.throw('[NodeRestriction AlwaysDeny] in enable-admission-plugins and disable-admission-plugins overlapped');
  });

  it('keeps webhooks and quota behind every other plugin', () => {
    const tail = orderedAdmissionPlugins.slice(-5);
    expect(tail).to.deep.equal(['MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
  });
});
