// Authentication settings that need a server of their own: anonymous requests on by
// default (and off by flag), --service-account-lookup=false, a v1 token webhook,
// SelfSubjectReview's beta and alpha versions through --runtime-config, and startup
// errors for bad configuration.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, serverNodeArgs, startReplicas, testEtcdEndpoint, type Cluster, type TlsCredentials } from '../harness/index.js';
import { startWebhook, type WebhookServer } from './authn-fixtures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the server with flags that must stop it; resolves with its exit code and output. */
async function startFails(args: string[], dir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, serverNodeArgs([`--etcd-servers=${await testEtcdEndpoint()}`, '--secure-port=0', '--bind-address=127.0.0.1', `--cert-dir=${dir}`, ...args]), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  clearTimeout(timer);
  return { code, output };
}

describe('authentication settings', function () {
  this.timeout(120_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authn-modes-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // RBAC, not AlwaysDeny: the tokens controller's requests are authorized like anyone's.
  describe('anonymous on (mode RBAC), lookup off, webhook v1, runtime-config', () => {
    let cluster: Cluster;
    let webhook: WebhookServer;
    let admin: TlsCredentials;
    const call = <T>(path: string, creds: TlsCredentials, opts: { method?: string; body?: unknown } = {}) => request<T>(`${cluster.urls[0]}${path}`, { ...creds, ...opts });

    before(async () => {
      webhook = await startWebhook(dir, 'v1');
      cluster = await startReplicas(1, {
        authorizationMode: 'RBAC',
        extraArgs: [
          '--service-account-lookup=false',
          `--authentication-token-webhook-config-file=${webhook.kubeconfig}`, '--authentication-token-webhook-version=v1',
          '--runtime-config=authentication.k8s.io/v1beta1=true,authentication.k8s.io/v1alpha1=true',
        ],
      });
      admin = cluster.credentialsFor('admin');
    });
    after(async () => {
      await cluster?.stop();
      await webhook?.stop();
    });

    it('no credentials: system:anonymous, whom authorization then judges (403, not 401)', async () => {
      const r = await call<{ code: number; message: string }>('/api/v1/namespaces', { ca: cluster.pki.ca.cert });
      expect(r.status, r.text).to.equal(403);
      expect(r.body.message).to.match(/^namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope/);
    });

    it('an invalid credential is 401, never anonymous', async () => {
      const r = await call('/api/v1/namespaces', { ca: cluster.pki.ca.cert, token: 'not-a-token' });
      expect(r.status).to.equal(401);
    });

    it('the webhook gets a v1 TokenReview when asked', async () => {
      const r = await call<{ status: { authenticated: boolean; user: { username: string } } }>('/apis/authentication.k8s.io/v1/tokenreviews', admin,
        { method: 'POST', body: { spec: { token: 'wh-good' } } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.status).to.deep.include({ authenticated: true });
      expect(r.body.status.user.username).to.equal('wh-user');
      expect(webhook.versions.length).to.be.greaterThan(0);
      expect(new Set(webhook.versions)).to.deep.equal(new Set(['authentication.k8s.io/v1']));
    });

    it('SelfSubjectReview in v1, v1beta1 and v1alpha1 when --runtime-config enables them', async () => {
      for (const v of ['v1', 'v1beta1', 'v1alpha1']) {
        const r = await call<{ apiVersion: string; status: { userInfo: { username: string } } }>(`/apis/authentication.k8s.io/${v}/selfsubjectreviews`, admin,
          { method: 'POST', body: { apiVersion: `authentication.k8s.io/${v}`, kind: 'SelfSubjectReview' } });
        expect(r.status, `${v}: ${r.text}`).to.equal(201);
        expect(r.body.apiVersion).to.equal(`authentication.k8s.io/${v}`);
        expect(r.body.status.userInfo.username).to.equal('admin');
      }
      const group = await call<{ versions: Array<{ version: string }>; preferredVersion: { version: string } }>('/apis/authentication.k8s.io', admin);
      expect(group.body.versions.map((v) => v.version)).to.deep.equal(['v1', 'v1beta1', 'v1alpha1']);
      expect(group.body.preferredVersion.version).to.equal('v1');
    });

    it('with --service-account-lookup=false a legacy token outlives its Secret', async () => {
      const ns = `authn-lookup-${Date.now().toString(36)}`;
      const post = (path: string, body: unknown) => call(path, admin, { method: 'POST', body });
      expect((await post('/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
      expect((await post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })).status).to.equal(201);
      expect((await post(`/api/v1/namespaces/${ns}/secrets`, {
        metadata: { name: 'robot-token', annotations: { 'kubernetes.io/service-account.name': 'robot' } }, type: 'kubernetes.io/service-account-token',
      })).status).to.equal(201);
      let token = '';
      for (let i = 0; i < 100 && !token; i++) {
        const s = await call<{ data?: { token?: string } }>(`/api/v1/namespaces/${ns}/secrets/robot-token`, admin);
        token = s.body.data?.token ? Buffer.from(s.body.data.token, 'base64').toString() : '';
        if (!token) await sleep(50);
      }
      expect(token).to.not.equal('');
      // The tokens controller does not delete this Secret while its account exists, so delete it ourselves.
      expect((await call(`/api/v1/namespaces/${ns}/secrets/robot-token`, admin, { method: 'DELETE' })).status).to.equal(200);
      await sleep(300);
      const r = await call<{ status: { authenticated?: boolean; user: { username?: string } } }>('/apis/authentication.k8s.io/v1/tokenreviews', admin,
        { method: 'POST', body: { spec: { token } } });
      expect(r.body.status.authenticated).to.equal(true);
      expect(r.body.status.user.username).to.equal(`system:serviceaccount:${ns}:robot`);
    });
  });

  describe('anonymous off', () => {
    let cluster: Cluster;
    before(async () => {
      cluster = await startReplicas(1, { authorizationMode: 'AlwaysDeny', anonymousAuth: false });
    });
    after(async () => { await cluster?.stop(); });

    it('--anonymous-auth=false: no credentials is 401', async () => {
      const r = await request(`${cluster.urls[0]}/api/v1/namespaces`, { ca: cluster.pki.ca.cert });
      expect(r.status).to.equal(401);
    });

    it('SelfSubjectReview v1beta1 and v1alpha1 are not served by default, as upstream v1.28', async () => {
      for (const v of ['v1beta1', 'v1alpha1']) {
        const r = await request(`${cluster.urls[0]}/apis/authentication.k8s.io/${v}/selfsubjectreviews`, { ...cluster.credentialsFor(), method: 'POST', body: {} });
        expect(r.status, v).to.equal(404);
      }
    });
  });

  describe('startup errors', () => {
    it('a malformed token file, an unknown webhook version, an http OIDC issuer, an issuer without client id', async () => {
      const tokens = join(dir, 'bad-tokens.csv');
      await writeFile(tokens, 'tok1,alice,uid1\ntok2,bob\n');
      const webhookCfg = join(dir, 'wh.kubeconfig');
      await writeFile(webhookCfg, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n');
      const cases: Array<[string[], string]> = [
        [[`--token-auth-file=${tokens}`], `token file '${tokens}' must have at least 3 columns (token, user name, user uid), found 2 (line 2)`],
        [[`--authentication-token-webhook-config-file=${webhookCfg}`, '--authentication-token-webhook-version=v2'], 'unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"'],
        [['--oidc-issuer-url=http://issuer.example', '--oidc-client-id=k'], `'oidc-issuer-url' ("http://issuer.example") has invalid scheme ("http"), require 'https'`],
        [['--oidc-issuer-url=https://issuer.example'], 'oidc-issuer-url requires oidc-client-id'],
      ];
      // Each server process takes a couple of seconds to load: run them side by side.
      const results = await Promise.all(cases.map(([args], i) => startFails(args, join(dir, `certs-${i}`))));
      results.forEach((r, i) => {
        expect(r.code, r.output).to.equal(1);
        expect(r.output).to.contain(cases[i]![1]);
      });
    });
  });
});
