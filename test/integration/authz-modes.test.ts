// The authorization modes other than RBAC, and their order (SPEC 5.14): AlwaysDeny,
// ABAC from a policy file, Webhook (SubjectAccessReview exchange with caching and
// failure handling), flag validation and a bad policy file at start.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { request, serverNodeArgs, startReplicas, testEtcdEndpoint, uniquePrefix, type Cluster } from '../harness/index.js';

const tokens = [
  { token: 'alice-token', name: 'alice', groups: ['readers'] },
  { token: 'bob-token', name: 'bob' },
  { token: 'web-allowed-token', name: 'web-allowed' },
  { token: 'web-denied-token', name: 'web-denied' },
];

describe('authorization modes and their order', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'authz-modes-'));

  describe('ABAC,AlwaysDeny', () => {
    let cluster: Cluster;
    before(async () => {
      const policy = join(dir, 'abac.jsonl');
      writeFileSync(policy, [
        '# readers may read everything; alice may write configmaps in default',
        '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"group": "readers", "namespace": "*", "resource": "*", "apiGroup": "*", "readonly": true}}',
        '',
        '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "alice", "namespace": "default", "resource": "configmaps", "apiGroup": ""}}',
        '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "*", "nonResourcePath": "/version"}}',
        '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"group": "system:authenticated", "namespace": "*", "apiGroup": "authorization.k8s.io", "resource": "selfsubjectrulesreviews"}}',
      ].join('\n'));
      cluster = await startReplicas(1, { authorizationMode: 'ABAC,AlwaysDeny', tokens, extraArgs: [`--authorization-policy-file=${policy}`] });
    });
    after(async () => { await cluster?.stop(); });
    const as = (user: string, path: string, opts: Parameters<typeof request>[1] = {}) =>
      request(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(user), ...opts });

    it('ABAC allows what its policies match (readonly, namespace, resource, group, path)', async () => {
      expect((await as('alice', '/api/v1/namespaces/kube-system/secrets')).status).to.equal(200);
      expect((await as('alice', '/api/v1/namespaces/default/configmaps', { method: 'POST', body: { metadata: { name: `abac-${Date.now()}` } } })).status).to.equal(201);
      expect((await as('bob', '/version')).status).to.equal(200);
    });

    it('no opinion from every mode is 403 with their reasons in order', async () => {
      const r = await as('alice', '/api/v1/namespaces/kube-system/configmaps', { method: 'POST', body: { metadata: { name: 'x' } } });
      expect(r.status).to.equal(403);
      expect((r.body as { message: string }).message).to.equal(
        'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "kube-system": No policy matched.\nEverything is forbidden.');
      const p = await as('bob', '/api');
      expect((p.body as { message: string }).message).to.equal('forbidden: User "bob" cannot get path "/api": No policy matched.\nEverything is forbidden.');
    });

    it('system:masters is allowed whatever the modes say', async () => {
      expect((await as('admin', '/api/v1/namespaces/default/secrets', { method: 'POST', body: { metadata: { name: `m-${Date.now()}` } } })).status).to.equal(201);
    });

    it('SelfSubjectRulesReview enumerates ABAC rules', async () => {
      const r = await as('alice', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { method: 'POST', body: { spec: { namespace: 'default' } } });
      expect(r.status).to.equal(201);
      expect((r.body as { status: unknown }).status).to.deep.equal({
        resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] },
          { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] }],
        // Upstream's ABAC enumeration also filters non-resource policies by namespace.
        nonResourceRules: [],
        incomplete: false,
      });
    });
  });

  describe('Webhook,RBAC', () => {
    let cluster: Cluster;
    let hook: Server;
    const seen: Array<Record<string, unknown>> = [];
    before(async () => {
      hook = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const review = JSON.parse(Buffer.concat(chunks).toString()) as { spec: { user?: string } };
          seen.push(review as Record<string, unknown>);
          const user = review.spec.user;
          const status = user === 'web-allowed' ? { allowed: true, reason: 'hook says yes' }
            : user === 'web-denied' ? { allowed: false, denied: true, reason: 'hook says no' } : { allowed: false };
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', status }));
        });
      });
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
      const port = (hook.address() as { port: number }).port;
      const cfg = join(dir, 'webhook.kubeconfig');
      writeFileSync(cfg, `apiVersion: v1
kind: Config
clusters:
- name: hook
  cluster:
    server: http://127.0.0.1:${port}/authorize
users:
- name: apiserver
  user:
    token: secret
contexts:
- name: hook
  context: {cluster: hook, user: apiserver}
current-context: hook
`);
      cluster = await startReplicas(1, { authorizationMode: 'Webhook,RBAC', tokens, extraArgs: [`--authorization-webhook-config-file=${cfg}`, '--authorization-webhook-cache-unauthorized-ttl=100ms'] });
    });
    after(async () => {
      await cluster?.stop();
      hook?.close();
    });
    const as = (user: string, path: string, opts: Parameters<typeof request>[1] = {}) =>
      request(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(user), ...opts });

    it('sends a v1beta1 SubjectAccessReview and follows allow and deny', async () => {
      const ok = await as('web-allowed', '/api/v1/namespaces/default/configmaps');
      expect(ok.status).to.equal(200);
      const sent = seen.find((s) => (s.spec as { user?: string }).user === 'web-allowed')!;
      expect(sent).to.deep.equal({ apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: null },
        spec: { resourceAttributes: { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' }, user: 'web-allowed', group: ['system:authenticated'], uid: 'web-allowed' },
        status: { allowed: false } });
      const denied = await as('web-denied', '/api/v1/namespaces/default/configmaps');
      expect(denied.status).to.equal(403);
      expect((denied.body as { message: string }).message).to.match(/in the namespace "default": hook says no$/);
    });

    it('caches authorized answers', async () => {
      // Only this user's reviews: the controllers' own requests are authorized by the webhook too.
      const asked = () => seen.filter((s) => (s.spec as { user?: string }).user === 'web-allowed').length;
      const before = asked();
      for (let i = 0; i < 3; i++) expect((await as('web-allowed', '/api/v1/namespaces/default/configmaps')).status).to.equal(200);
      expect(asked()).to.equal(before);
    });

    it('a webhook no-opinion falls through to RBAC; a failing webhook is an error', async () => {
      // bob: webhook has no opinion, RBAC's system:discovery allows /api.
      expect((await as('bob', '/api')).status).to.equal(200);
      hook.close();
      hook.closeAllConnections();
      const r = await as('bob', '/metrics');
      expect(r.status).to.equal(500);
      expect(r.text).to.match(/^Internal Server Error: "\/metrics": Post "http:\/\/127\.0\.0\.1:\d+\/authorize": /);
      // Answers cached before the failure still hold.
      expect((await as('web-allowed', '/api/v1/namespaces/default/configmaps')).status).to.equal(200);
    });
  });

  describe('start-up checks', () => {
    const run = async (args: string[]) => spawnSync(process.execPath, serverNodeArgs([`--etcd-servers=${await testEtcdEndpoint()}`,
      `--etcd-prefix=${uniquePrefix('authz-bad')}`, '--secure-port=0', '--bind-address=127.0.0.1', `--cert-dir=${dir}`, ...args]), { encoding: 'utf8', timeout: 30_000 });

    it('a bad ABAC policy file stops the server, naming the line', async () => {
      const bad = join(dir, 'bad.jsonl');
      writeFileSync(bad, '{"apiVersion": "abac.authorization.kubernetes.io/v1beta1", "kind": "Policy", "spec": {"user": "a"}}\n{"apiVersion": \n');
      const r = await run(['--authorization-mode=ABAC', `--authorization-policy-file=${bad}`]);
      expect(r.status).to.not.equal(0);
      expect(r.stderr).to.contain(`error reading policy file ${bad}, line 2: {"apiVersion": : `);
    });

    it('mode flags are validated as upstream', async () => {
      const r = await run(['--authorization-mode=ABAC']);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain("authorization-mode ABAC's authorization policy file not passed");
      const w = await run(['--authorization-mode=RBAC', '--authorization-webhook-config-file=/x']);
      expect(w.stderr).to.contain('cannot specify --authorization-webhook-config-file without mode Webhook');
    });
  });
});
