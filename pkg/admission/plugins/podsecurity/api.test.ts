import { expect } from 'chai';
import { levelVersionString, policyToEvaluate, privilegedPolicy } from './api.js';
import { parseConfiguration } from './config.js';

describe('PodSecurity namespace labels and configuration', () => {
  it('labels override the defaults per mode; versions are "latest" or v1.x', () => {
    const { policy, errors } = policyToEvaluate({
      'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.24',
      'pod-security.kubernetes.io/warn': 'restricted',
    }, privilegedPolicy);
    expect(errors).to.deep.equal([]);
    expect(levelVersionString(policy.enforce)).to.equal('baseline:v1.24');
    expect(levelVersionString(policy.warn)).to.equal('restricted:latest');
    expect(levelVersionString(policy.audit)).to.equal('privileged:latest');
  });

  it('invalid values: enforce fails closed (restricted), audit and warn open (privileged), with field errors', () => {
    const { policy, errors } = policyToEvaluate({
      'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn': 'x', 'pod-security.kubernetes.io/audit-version': '1.25',
    }, privilegedPolicy);
    expect(policy.enforce.level).to.equal('restricted');
    expect(policy.warn.level).to.equal('privileged');
    expect(errors.map((e) => [e.field, e.value, e.detail])).to.deep.equal([
      ['metadata.labels[pod-security.kubernetes.io/enforce]', 'strict', 'must be one of privileged, baseline, restricted'],
      ['metadata.labels[pod-security.kubernetes.io/audit-version]', '1.25', 'must be "latest" or "v1.x"'],
      ['metadata.labels[pod-security.kubernetes.io/warn]', 'x', 'must be one of privileged, baseline, restricted'],
    ]);
  });

  it('reads PodSecurityConfiguration defaults and exemptions, refusing bad values', () => {
    const cfg = parseConfiguration({
      apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'baseline', 'enforce-version': 'v1.27', warn: 'restricted' },
      exemptions: { usernames: ['ci'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
    });
    expect(levelVersionString(cfg.defaults.enforce)).to.equal('baseline:v1.27');
    expect(levelVersionString(cfg.defaults.warn)).to.equal('restricted:latest');
    expect(cfg.exemptions).to.deep.equal({ usernames: ['ci'], namespaces: ['kube-system'], runtimeClasses: ['kata'] });
    expect(() => parseConfiguration({ apiVersion: 'pod-security.admission.config.k8s.io/v1beta1', kind: 'PodSecurityConfiguration', defaults: { audit: 'loose' } }))
      .to.throw('defaults.audit: Invalid value: "loose": must be one of privileged, baseline, restricted');
    expect(() => parseConfiguration({ apiVersion: 'v1', kind: 'Other' })).to.throw('expected kind PodSecurityConfiguration');
  });
});
