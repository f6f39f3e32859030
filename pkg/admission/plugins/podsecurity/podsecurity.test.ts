// The plugin over in-memory namespaces and pods: which requests are evaluated, at which
// mode, and what the caller sees (error, Warning headers, audit annotations).
import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { PodSecurity } from './index.js';

const restrictedOK = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [{ name: 'c', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
};
const privilegedSpec = { containers: [{ name: 'c', image: 'x', securityContext: { privileged: true } }] };

function ns(name: string, labels: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}
function pod(name: string, spec: Record<string, unknown>, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'n', ...extra }, spec };
}

describe('PodSecurity plugin', () => {
  let namespaces: Map<string, KubeObject>;
  let pods: KubeObject[];
  const plugin = (config?: unknown) => new PodSecurity({
    namespace: async (name) => namespaces.get(name),
    pods: async (n) => pods.filter((p) => p.metadata.namespace === n),
  }, config);
  const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
    operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '', namespace: 'n', name: '',
    user: { name: 'alice', groups: [] }, dryRun: false, warnings: [], auditAnnotations: {}, ...over,
  });
  const refusal = async (p: PodSecurity, a: AdmissionAttributes): Promise<StatusError> => {
    try {
      await p.validate(a);
    } catch (err) {
      if (err instanceof StatusError) return err;
      throw err;
    }
    throw new Error('expected a refusal');
  };

  beforeEach(() => {
    namespaces = new Map();
    pods = [];
  });

  it('enforce refuses a violating pod with upstream\'s message and records the policy', async () => {
    namespaces.set('n', ns('n', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/audit': 'restricted' }));
    const a = attrs({ name: 'p', object: pod('p', privilegedSpec) });
    const err = await refusal(plugin(), a);
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    expect(a.warnings).to.deep.equal([]);
    expect(a.auditAnnotations!['pod-security.kubernetes.io/enforce-policy']).to.equal('baseline:latest');
    expect(a.auditAnnotations!['pod-security.kubernetes.io/audit-violations']).to.match(/^would violate PodSecurity "restricted:latest": privileged \(/);
  });

  it('warn adds a warning; templates are warned about but never refused', async () => {
    namespaces.set('n', ns('n', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'baseline' }));
    const deploy: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' }, spec: { template: { metadata: {}, spec: privilegedSpec } } };
    const a = attrs({ group: 'apps', kind: 'Deployment', resource: 'deployments', name: 'd', object: deploy });
    await plugin().validate(a);
    expect(a.warnings).to.deep.equal(['would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)']);
    const ok = attrs({ name: 'q', object: pod('q', restrictedOK) });
    await plugin().validate(ok);
    expect(ok.warnings).to.deep.equal([]);
  });

  it('metadata-only pod updates and ignored subresources are not evaluated; new ephemeral containers are', async () => {
    namespaces.set('n', ns('n', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const old = pod('p', privilegedSpec);
    await plugin().validate(attrs({ operation: 'UPDATE', name: 'p', object: pod('p', privilegedSpec, { labels: { a: 'b' } }), oldObject: old }));
    await plugin().validate(attrs({ operation: 'UPDATE', name: 'p', subresource: 'status', object: old, oldObject: old }));
    const withDebug = pod('p', { containers: [{ name: 'c', image: 'x' }], ephemeralContainers: [{ name: 'dbg', image: 'x', securityContext: { privileged: true } }] });
    const err = await refusal(plugin(), attrs({ operation: 'UPDATE', name: 'p', subresource: 'ephemeralcontainers', object: withDebug, oldObject: pod('p', { containers: [{ name: 'c', image: 'x' }] }) }));
    expect(err.message).to.equal('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "dbg" must not set securityContext.privileged=true)');
  });

  it('exempt users, namespaces and runtime classes pass and are annotated', async () => {
    namespaces.set('n', ns('n', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
    const p = plugin({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { usernames: ['ci'], runtimeClasses: ['kata'] } });
    const byUser = attrs({ name: 'p', object: pod('p', privilegedSpec), user: { name: 'ci', groups: [] } });
    await p.validate(byUser);
    expect(byUser.auditAnnotations).to.deep.equal({ 'pod-security.kubernetes.io/exempt': 'user' });
    const byClass = attrs({ name: 'p', object: pod('p', { ...privilegedSpec, runtimeClassName: 'kata' }) });
    await p.validate(byClass);
    expect(byClass.auditAnnotations).to.deep.equal({ 'pod-security.kubernetes.io/exempt': 'runtimeClass' });
  });

  it('invalid namespace labels are refused (422); pods in a namespace with bad labels are evaluated as restricted', async () => {
    const err = await refusal(plugin(), attrs({ kind: 'Namespace', resource: 'namespaces', namespace: '', name: 'x', object: ns('x', { 'pod-security.kubernetes.io/enforce': 'strict' }) }));
    expect(err.code).to.equal(422);
    expect(err.message).to.equal('Namespace "x" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
    namespaces.set('n', ns('n', { 'pod-security.kubernetes.io/enforce': 'strict' }));
    const a = attrs({ name: 'p', object: pod('p', { containers: [{ name: 'c', image: 'x' }] }) });
    const denied = await refusal(plugin(), a);
    expect(denied.message).to.match(/violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
    expect(a.auditAnnotations!['pod-security.kubernetes.io/error']).to.equal('Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });

  it('tightening enforce warns about existing pods, grouped by reasons', async () => {
    pods = [
      pod('b', privilegedSpec), pod('a', privilegedSpec), pod('z', { containers: [{ name: 'c', image: 'x' }], hostNetwork: true }), pod('ok', restrictedOK),
    ];
    const a = attrs({ operation: 'UPDATE', kind: 'Namespace', resource: 'namespaces', namespace: 'n', name: 'n',
      object: ns('n', { 'pod-security.kubernetes.io/enforce': 'baseline' }), oldObject: ns('n', {}) });
    await plugin().validate(a);
    expect(a.warnings).to.deep.equal([
      'existing pods in namespace "n" violate the new PodSecurity enforce level "baseline:latest"',
      'a (and 1 other pod): privileged',
      'z: host namespaces',
    ]);
    const relaxed = attrs({ operation: 'UPDATE', kind: 'Namespace', resource: 'namespaces', namespace: 'n', name: 'n',
      object: ns('n', { 'pod-security.kubernetes.io/enforce': 'baseline' }), oldObject: ns('n', { 'pod-security.kubernetes.io/enforce': 'restricted' }) });
    await plugin().validate(relaxed);
    expect(relaxed.warnings).to.deep.equal([]);
  });
});
