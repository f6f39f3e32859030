import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPolicyFile, PolicyChecker, type AuditAttributes, type Policy } from './policy.js';

const req = (o: Partial<AuditAttributes>): AuditAttributes => ({
  user: { name: 'alice', groups: ['dev', 'system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/a/pods/p',
  namespace: 'a', apiGroup: '', resource: 'pods', subresource: '', name: 'p', ...o,
});

describe('audit policy (audit.k8s.io/v1 Policy)', () => {
  const policy: Policy = {
    omitStages: ['RequestReceived'],
    rules: [
      { level: 'None', users: ['system:kube-proxy'], verbs: ['watch'] },
      { level: 'None', nonResourceURLs: ['/healthz*', '/version'] },
      { level: 'RequestResponse', resources: [{ group: '', resources: ['pods/log', '*/scale'] }] },
      { level: 'Request', userGroups: ['ops'], resources: [{ group: 'apps', resources: ['deployments/*'] }], omitStages: ['ResponseStarted'] },
      { level: 'Metadata', resources: [{ group: '', resources: ['secrets'], resourceNames: ['s1'] }], omitManagedFields: true },
      { level: 'Request', namespaces: ['', 'kube-system'] },
      { level: 'Metadata' },
    ],
  };
  const c = new PolicyChecker(policy);

  it('takes the first matching rule and merges policy and rule omitStages', () => {
    expect(c.configFor(req({ user: { name: 'system:kube-proxy' }, verb: 'watch' })).level).to.equal('None');
    expect(c.configFor(req({ user: { name: 'system:kube-proxy' }, verb: 'list' })).level).to.equal('Metadata');
    const r = c.configFor(req({ user: { name: 'bob', groups: ['ops'] }, apiGroup: 'apps', resource: 'deployments', subresource: 'status' }));
    expect(r.level).to.equal('Request');
    expect([...r.omitStages]).to.have.members(['RequestReceived', 'ResponseStarted']);
  });

  it('matches subresources by resource/sub, */sub and resource/* (which, as upstream\'s checker, also matches the resource itself)', () => {
    expect(c.configFor(req({ subresource: 'log' })).level).to.equal('RequestResponse');
    expect(c.configFor(req({ apiGroup: '', resource: 'replicationcontrollers', subresource: 'scale' })).level).to.equal('RequestResponse');
    expect(c.configFor(req({ user: { name: 'b', groups: ['ops'] }, apiGroup: 'apps', resource: 'deployments' })).level).to.equal('Request');
    expect(c.configFor(req({ user: { name: 'b', groups: ['ops'] }, apiGroup: 'apps', resource: 'replicasets' })).level).to.equal('Metadata');
  });

  it('honours resourceNames, namespaces ("" = cluster scope) and never mixes resource and non-resource rules', () => {
    const s1 = c.configFor(req({ resource: 'secrets', name: 's1' }));
    expect(s1.level).to.equal('Metadata');
    expect(s1.omitManagedFields).to.equal(true);
    expect(c.configFor(req({ resource: 'secrets', name: 's2' })).omitManagedFields).to.equal(false);
    expect(c.configFor(req({ namespace: '', resource: 'nodes', name: 'n' })).level).to.equal('Request');
    expect(c.configFor(req({ isResourceRequest: false, path: '/healthz/etcd', verb: 'get', resource: '', namespace: '' })).level).to.equal('None');
    // A namespaces rule never matches a non-resource request.
    expect(c.configFor(req({ isResourceRequest: false, path: '/metrics', namespace: '', resource: '' })).level).to.equal('Metadata');
  });

  it('answers None when nothing matches', () => {
    expect(new PolicyChecker({ rules: [{ level: 'Metadata', verbs: ['create'] }] }).configFor(req({})).level).to.equal('None');
  });

  describe('loading --audit-policy-file', () => {
    let dir: string;
    beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'auditpol-')); });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const write = (text: string) => { const p = join(dir, 'p.yaml'); writeFileSync(p, text); return p; };

    it('reads a valid policy', () => {
      const p = loadPolicyFile(write('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'));
      expect(p.rules).to.deep.equal([{ level: 'Metadata' }]);
    });

    it('refuses an empty policy, bad levels and stages, and mixed rules with upstream\'s words', () => {
      expect(() => loadPolicyFile(write('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n'))).to.throw(/loaded illegal policy with 0 rules/);
      expect(() => loadPolicyFile(write('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n')))
        .to.throw('rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"');
      expect(() => loadPolicyFile(write('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Sometime]\nrules:\n- level: None\n')))
        .to.throw('omitStages[0]: Unsupported value: "Sometime"');
      expect(() => loadPolicyFile(write('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: [/x]\n  resources: [{group: ""}]\n')))
        .to.throw('rules cannot apply to both regular resources and non-resource URLs');
      expect(() => loadPolicyFile(write('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: None\n'))).to.throw(/expected audit.k8s.io\/v1 Policy/);
    });
  });
});
