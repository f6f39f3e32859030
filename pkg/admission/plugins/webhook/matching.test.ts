import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdmissionAttributes } from '../../interfaces.js';
import { credentialResolverFromConfig, credentialResolverFromKubeconfig } from './auth.js';
import { denial } from './dispatch.js';
import { compileRules, type RuleTarget } from './matching.js';
import { negotiateReviewVersion, verifyReview } from './review.js';
import { compileSelector, namespaceSelectorMatches, objectSelectorMatches } from './selectors.js';

const t = (over: Partial<RuleTarget> = {}): RuleTarget => ({
  operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'ns1', ...over,
});
const rule = (resources: string[], over: Record<string, unknown> = {}) => compileRules([{
  operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources, scope: '*', ...over,
}]);

describe('webhook rules', () => {
  it('matches resources with subresource wildcards as upstream', () => {
    expect(rule(['*'])(t())).to.equal(true);
    expect(rule(['*'])(t({ subresource: 'status' }))).to.equal(false);
    expect(rule(['*/*'])(t({ subresource: 'status' }))).to.equal(true);
    expect(rule(['*/*'])(t())).to.equal(true);
    expect(rule(['pods/*'])(t({ subresource: 'log' }))).to.equal(true);
    expect(rule(['pods/*'])(t())).to.equal(true);
    expect(rule(['pods/*'])(t({ resource: 'services' }))).to.equal(false);
    expect(rule(['*/status'])(t({ resource: 'deployments', subresource: 'status' }))).to.equal(true);
    expect(rule(['*/status'])(t({ subresource: 'scale' }))).to.equal(false);
    expect(rule(['pods'])(t({ subresource: 'status' }))).to.equal(false);
    expect(rule(['pods/status'])(t({ subresource: 'status' }))).to.equal(true);
  });

  it('matches operations, groups and versions', () => {
    const r = rule(['deployments'], { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'] });
    expect(r(t({ group: 'apps', resource: 'deployments' }))).to.equal(true);
    expect(r(t({ group: 'apps', resource: 'deployments', operation: 'UPDATE' }))).to.equal(false);
    expect(r(t({ group: 'extensions', resource: 'deployments' }))).to.equal(false);
    expect(r(t({ group: 'apps', version: 'v1beta1', resource: 'deployments' }))).to.equal(false);
    expect(compileRules([])(t())).to.equal(false);
  });

  it('honours scope; Namespace objects are cluster-scoped', () => {
    const namespaced = rule(['*'], { scope: 'Namespaced' });
    const cluster = rule(['*'], { scope: 'Cluster' });
    expect(namespaced(t())).to.equal(true);
    expect(namespaced(t({ resource: 'nodes', namespace: '' }))).to.equal(false);
    expect(cluster(t({ resource: 'nodes', namespace: '' }))).to.equal(true);
    expect(cluster(t())).to.equal(false);
    expect(cluster(t({ resource: 'namespaces', namespace: 'x' }))).to.equal(true);
    expect(namespaced(t({ resource: 'namespaces', namespace: 'x' }))).to.equal(false);
  });
});

describe('webhook selectors', () => {
  const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
    operation: 'CREATE', group: '', version: 'v1', kind: 'ConfigMap', resource: 'configmaps', subresource: '', namespace: 'ns1', name: 'c',
    user: { name: 'u', groups: [] }, dryRun: false, ...over,
  });
  const labels = (l: Record<string, string>) => ({ metadata: { name: 'x', labels: l } });
  const nsSource = (l: Record<string, string> | undefined) => ({ cached: () => (l ? labels(l) : undefined), live: async () => undefined });

  it('objectSelector matches the new or the old object; empty matches all', () => {
    const sel = compileSelector({ matchLabels: { a: 'b' } });
    expect(compileSelector({})).to.equal(null);
    expect(objectSelectorMatches(null, attrs({}))).to.equal(true);
    expect(objectSelectorMatches(sel, attrs({ object: labels({ a: 'b' }) }))).to.equal(true);
    expect(objectSelectorMatches(sel, attrs({ object: labels({}), oldObject: labels({ a: 'b' }) }))).to.equal(true);
    expect(objectSelectorMatches(sel, attrs({ object: labels({ a: 'c' }) }))).to.equal(false);
  });

  it('namespaceSelector reads the namespace, the Namespace itself, and ignores other cluster-scoped resources', async () => {
    const sel = compileSelector({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] });
    expect(await namespaceSelectorMatches(sel, attrs({}), nsSource({ env: 'prod' }))).to.equal(true);
    expect(await namespaceSelectorMatches(sel, attrs({}), nsSource({ env: 'dev' }))).to.equal(false);
    expect(await namespaceSelectorMatches(sel, attrs({ resource: 'nodes', namespace: '' }), nsSource(undefined))).to.equal(true);
    const nsCreate = attrs({ resource: 'namespaces', namespace: '', name: 'n', object: labels({ env: 'prod' }) });
    expect(await namespaceSelectorMatches(sel, nsCreate, nsSource(undefined))).to.equal(true);
    const nsDelete = attrs({ operation: 'DELETE', resource: 'namespaces', namespace: '', name: 'n', oldObject: labels({}) });
    expect(await namespaceSelectorMatches(sel, nsDelete, nsSource({ env: 'dev' }))).to.equal(false);
    let err: unknown;
    try { await namespaceSelectorMatches(sel, attrs({}), nsSource(undefined)); } catch (e) { err = e; }
    expect(err).to.have.property('code', 500);
  });
});

describe('webhook kubeconfig credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wh-auth-'));
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, [
    'apiVersion: v1', 'kind: Config', 'users:',
    '- name: exact.ns.svc', '  user: { token: exact }',
    '- name: "*.ns.svc"', '  user: { token: wild }',
    '- name: "other.ns.svc:8443"', '  user: { username: u, password: p }',
    '- name: "127.0.0.1:9443"', '  user: { token: byhost }',
    '- name: "*"', '  user: { token: star }',
  ].join('\n'));
  const resolve = credentialResolverFromKubeconfig(file);

  it('picks the user by exact name, *. wildcard, without :443, then *', () => {
    expect(resolve('exact.ns.svc')?.token).to.equal('exact');
    expect(resolve('x.ns.svc')?.token).to.equal('wild');
    expect(resolve('x.ns.svc:443')?.token).to.equal('wild');
    expect(resolve('other.ns.svc:8443')).to.include({ username: 'u', password: 'p' });
    expect(resolve('127.0.0.1:9443')?.token).to.equal('byhost');
    expect(resolve('elsewhere')?.token).to.equal('star');
  });

  it('reads WebhookAdmissionConfiguration and requires an absolute kubeConfigFile', () => {
    const ok = credentialResolverFromConfig({ baseDir: dir, configuration: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: file } });
    expect(ok('exact.ns.svc')?.token).to.equal('exact');
    expect(() => credentialResolverFromConfig({ baseDir: dir, configuration: { apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: 'rel' } }))
      .to.throw('kubeConfigFile: Invalid value: "rel": must be an absolute file path');
  });
});

describe('AdmissionReview responses', () => {
  const body = (r: Record<string, unknown>, apiVersion = 'admission.k8s.io/v1') => JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: r });

  it('negotiates the first known version', () => {
    expect(negotiateReviewVersion(['v2', 'v1beta1', 'v1'])).to.equal('v1beta1');
    expect(negotiateReviewVersion(['v1'])).to.equal('v1');
    expect(negotiateReviewVersion(['v9'])).to.equal(undefined);
  });

  it('verifies uid, kind and patch fields as upstream', () => {
    expect(() => verifyReview('v1', 'u1', true, body({ uid: 'u2', allowed: true }))).to.throw('expected response.uid="u1", got "u2"');
    expect(() => verifyReview('v1', 'u1', true, JSON.stringify({ response: { uid: 'u1', allowed: true } })))
      .to.throw('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=');
    expect(() => verifyReview('v1', 'u1', true, body({ uid: 'u1', allowed: true, patch: 'W10=' }))).to.throw('webhook returned response.patch but not response.patchType');
    expect(() => verifyReview('v1', 'u1', false, body({ uid: 'u1', allowed: true, patchType: 'JSONPatch', patch: 'W10=' }))).to.throw('validating webhook may not return response.patchType');
    expect(() => verifyReview('v1', 'u1', true, JSON.stringify({}))).to.throw('webhook response was absent');
    const beta = verifyReview('v1beta1', 'u1', true, body({ allowed: true, patch: Buffer.from('[]').toString('base64') }, 'admission.k8s.io/v1beta1'));
    expect(beta).to.include({ allowed: true, patchType: 'JSONPatch', patch: '[]' });
  });

  it('turns a denial into upstream status errors', () => {
    expect(denial('w.example.com', { code: 403, message: 'nope' })).to.include({ code: 403, message: 'admission webhook "w.example.com" denied the request: nope' });
    expect(denial('w', { code: 200, reason: 'why' })).to.include({ code: 400, message: 'admission webhook "w" denied the request: why' });
    expect(denial('w', undefined)).to.include({ code: 400, message: 'admission webhook "w" denied the request without explanation' });
  });
});
