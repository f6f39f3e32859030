// Every authentication method of SPEC 5 through HTTP against real replicas on real etcd,
// with their failure modes. One replica runs every method at once (client certificates,
// token file, service accounts with RS256 and ES256 keys, bootstrap tokens, OIDC against
// a local issuer, a token webhook, the authenticating proxy); identities are read back
// with SelfSubjectReview, failure reasons with TokenReview (as admin).
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startReplicas, type Cluster, type HttpResponse, type TlsCredentials } from '../harness/index.js';
import { startOIDCIssuer, type OIDCIssuer } from '../harness/oidc-issuer.js';
import { startWebhook, type WebhookServer } from './authn-fixtures.js';
import { generateCA, issueCertificate, type CertKeyPair } from '../../pkg/util/cert/index.js';
import { boundClaims } from '../../pkg/serviceaccount/claims.js';
import { TokenGenerator } from '../../pkg/serviceaccount/generator.js';
import { readPrivateKey } from '../../pkg/serviceaccount/keys.js';

interface UserInfo { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }
interface ReviewStatus { authenticated?: boolean; user?: UserInfo; audiences?: string[]; error?: string }
interface Status { kind: string; code: number; reason: string; message: string }

const saIssuer = 'https://kubernetes.default.svc.cluster.local';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until check() returns true (SPEC: changes reach every replica's cache within a second). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await sleep(25);
  }
}

describe('authentication methods over HTTP', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: Cluster;
  let oidc: OIDCIssuer;
  let webhook: WebhookServer;
  let proxyCA: CertKeyPair;
  let proxy: CertKeyPair;
  let otherProxy: CertKeyPair;
  let esKeyFile: string;
  let url: string;
  let admin: TlsCredentials;

  const call = <T>(path: string, creds: TlsCredentials, opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    request<T>(`${url}${path}`, { ...creds, ...opts });
  const asToken = (token: string): TlsCredentials => ({ ca: cluster.pki.ca.cert, token });
  const whoami = async (creds: TlsCredentials, headers?: Record<string, string>) => {
    const r = await call<{ status: { userInfo: UserInfo } }>('/apis/authentication.k8s.io/v1/selfsubjectreviews', creds,
      { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, headers });
    return { status: r.status, user: r.status === 201 ? r.body.status.userInfo : undefined, res: r };
  };
  const review = async (token: string, audiences?: string[]): Promise<ReviewStatus> => {
    const r = await call<{ status: ReviewStatus }>('/apis/authentication.k8s.io/v1/tokenreviews', admin,
      { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } } });
    expect(r.status, r.text).to.equal(201);
    return r.body.status;
  };
  const expect401 = (r: HttpResponse<unknown>) => {
    expect(r.status, r.text).to.equal(401);
    expect(r.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  };
  const create = async (path: string, body: unknown) => {
    const r = await call<Record<string, unknown>>(path, admin, { method: 'POST', body });
    expect(r.status, r.text).to.equal(201);
    return r.body as { metadata: { uid: string; name: string } };
  };
  const del = async (path: string) => {
    const r = await call(path, admin, { method: 'DELETE' });
    expect(r.status, r.text).to.be.oneOf([200, 202]);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authn-methods-'));
    oidc = await startOIDCIssuer({ dir, path: '/realms/test' });
    webhook = await startWebhook(dir, 'v1beta1');
    proxyCA = await generateCA('front-proxy-ca');
    proxy = await issueCertificate(proxyCA, { cn: 'front-proxy-client', usage: 'client' });
    otherProxy = await issueCertificate(proxyCA, { cn: 'some-other-client', usage: 'client' });
    await writeFile(join(dir, 'proxy-ca.crt'), proxyCA.cert);
    const es = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    esKeyFile = join(dir, 'sa-es256.key');
    await writeFile(esKeyFile, es.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(dir, 'sa-es256.pub'), es.publicKey.export({ type: 'spki', format: 'pem' }));
    cluster = await startReplicas(1, {
      clientUsers: [{ name: 'carol', groups: ['ops'] }],
      tokens: [{ token: 'tok-alice', name: 'alice', uid: 'alice-uid', groups: ['devs', 'qa'] }],
      extraArgs: [
        `--service-account-key-file=${join(dir, 'sa-es256.pub')}`,
        '--enable-bootstrap-token-auth',
        `--oidc-issuer-url=${oidc.url}`, '--oidc-client-id=kubernetes', `--oidc-ca-file=${oidc.caFile}`,
        '--oidc-groups-claim=groups', '--oidc-groups-prefix=oidc:', '--oidc-required-claim=hd=example.com', '--oidc-signing-algs=RS256,ES256',
        `--authentication-token-webhook-config-file=${webhook.kubeconfig}`, '--authentication-token-webhook-cache-ttl=1m',
        `--requestheader-client-ca-file=${join(dir, 'proxy-ca.crt')}`, '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User', '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ],
    });
    url = cluster.urls[0]!;
    admin = cluster.credentialsFor('admin');
  });

  after(async () => {
    await cluster?.stop();
    await oidc?.stop();
    await webhook?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('client certificates', () => {
    it('CN is the user and each O a group, plus system:authenticated', async () => {
      const r = await whoami(cluster.credentialsFor('carol'));
      expect(r.status).to.equal(201);
      expect(r.user).to.deep.equal({ username: 'carol', groups: ['ops', 'system:authenticated'] });
    });

    it('a certificate from another CA, an expired one, or one not for client use is 401', async () => {
      const foreignCA = await generateCA('foreign');
      const foreign = await issueCertificate(foreignCA, { cn: 'mallory', organizations: ['system:masters'], usage: 'client' });
      const expired = await issueCertificate(cluster.pki.ca, { cn: 'old', usage: 'client', days: -1 });
      const serverOnly = await issueCertificate(cluster.pki.ca, { cn: 'srv', usage: 'server' });
      for (const c of [foreign, expired, serverOnly]) {
        expect401(await call('/api/v1/namespaces', { ca: cluster.pki.ca.cert, cert: c.cert, key: c.key }));
      }
    });
  });

  describe('static token file', () => {
    it('authenticates the file\'s users with uid and groups; unknown tokens are 401, never anonymous', async () => {
      expect((await whoami(asToken('tok-alice'))).user).to.deep.equal({ username: 'alice', uid: 'alice-uid', groups: ['devs', 'qa', 'system:authenticated'] });
      expect401(await call('/api/v1/namespaces', asToken('tok-nobody')));
      expect(await review('tok-nobody')).to.deep.equal({ user: {}, error: 'invalid bearer token' });
    });

    it('is good only for the API audiences', async () => {
      expect(await review('tok-alice')).to.deep.include({ authenticated: true, audiences: [saIssuer] });
      expect(await review('tok-alice', ['vault'])).to.deep.equal({ user: {}, error: 'invalid bearer token' });
    });
  });

  describe('service-account tokens', () => {
    const ns = `authn-sa-${Date.now().toString(36)}`;
    const tokenFor = async (sa: string, spec: Record<string, unknown> = {}) => {
      const r = await call<{ status: { token: string; expirationTimestamp: string }; spec: Record<string, unknown> }>(
        `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, admin, { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
      expect(r.status, r.text).to.equal(201);
      return r.body;
    };

    before(async () => {
      await create('/api/v1/namespaces', { metadata: { name: ns } });
      await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } });
    });

    it('TokenRequest issues a bound token (default 3607 s, API audiences) that authenticates as the account', async () => {
      const before = Math.floor(Date.now() / 1000);
      const tr = await tokenFor('robot');
      const after = Math.ceil(Date.now() / 1000);
      expect(tr.spec).to.deep.equal({ audiences: [saIssuer], expirationSeconds: 3607, boundObjectRef: null });
      // 3607 s after it was issued, some time between the request and its answer (which
      // CI's load may stretch past the two seconds a fixed window allowed).
      const exp = Date.parse(tr.status.expirationTimestamp) / 1000;
      expect(exp).to.be.within(before + 3606, after + 3607);
      const sa = await call<{ metadata: { uid: string } }>(`/api/v1/namespaces/${ns}/serviceaccounts/robot`, admin);
      expect((await whoami(asToken(tr.status.token))).user).to.deep.equal({
        username: `system:serviceaccount:${ns}:robot`, uid: sa.body.metadata.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      });
    });

    it('a token for another audience is refused by the API but passes a review for that audience', async () => {
      const tr = await tokenFor('robot', { audiences: ['vault'] });
      expect401(await call('/api/v1/namespaces', asToken(tr.status.token)));
      expect(await review(tr.status.token)).to.deep.equal({ user: {}, error: `token audiences ["vault"] is invalid for the target audiences ["${saIssuer}"]` });
      expect(await review(tr.status.token, ['vault'])).to.deep.include({ authenticated: true, audiences: ['vault'] });
    });

    it('expired, foreign-signed and ES256 tokens: only the ones our keys verify and in time pass', async () => {
      const sa = (await call<{ metadata: { uid: string; name: string; namespace: string } }>(`/api/v1/namespaces/${ns}/serviceaccounts/robot`, admin)).body;
      const claims = (key: string, now: number) => new TokenGenerator(saIssuer, readPrivateKey(key)).generate({ ...boundClaims({ serviceAccount: sa, expirationSeconds: 3600, audiences: [saIssuer], now }) });
      const now = Math.floor(Date.now() / 1000);
      const expired = await claims(cluster.pki.serviceAccountKeyFile, now - 7200);
      expect401(await call('/api/v1/namespaces', asToken(expired)));
      expect(await review(expired)).to.deep.equal({ user: {}, error: 'service account token has expired' });
      const foreignKey = join(dir, 'foreign.key');
      await writeFile(foreignKey, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
      const forged = await claims(foreignKey, now);
      expect401(await call('/api/v1/namespaces', asToken(forged)));
      expect(await review(forged)).to.deep.equal({ user: {}, error: 'square/go-jose: error in cryptographic primitive' });
      // The second --service-account-key-file holds an ES256 key.
      expect((await whoami(asToken(await claims(esKeyFile, now)))).user?.username).to.equal(`system:serviceaccount:${ns}:robot`);
    });

    it('TokenRequest refusals: short lifetime, wrong name, missing account, unbindable kind, stale uid', async () => {
      const post = (sa: string, body: unknown) => call<Status>(`/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, admin, { method: 'POST', body });
      let r = await post('robot', { spec: { expirationSeconds: 60 } });
      expect(r.status).to.equal(422);
      expect(r.body.message).to.equal('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
      r = await post('robot', { metadata: { name: 'other' }, spec: {} });
      expect(r.status).to.equal(422);
      expect(r.body.message).to.equal('TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
      r = await post('ghost', { spec: {} });
      expect(r.status).to.equal(404);
      expect(r.body.message).to.equal('serviceaccounts "ghost" not found');
      r = await post('robot', { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } } });
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal('cannot bind token to object of type /v1, Kind=ConfigMap');
      await create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'anchor' } });
      r = await post('robot', { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor', uid: 'stale' } } });
      expect(r.status).to.equal(409);
      expect(r.body.message).to.match(/^Operation cannot be fulfilled on Secret "anchor": the UID in the bound object reference \(stale\) does not match the UID in record/);
    });

    it('revoked when the bound Secret is deleted, and when the account is deleted or recreated', async () => {
      await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'temp' } });
      const anchor = await create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'temp-anchor' } });
      const bound = await tokenFor('temp', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'temp-anchor', uid: anchor.metadata.uid } });
      const plain = await tokenFor('temp');
      expect((await whoami(asToken(bound.status.token))).status).to.equal(201);
      await del(`/api/v1/namespaces/${ns}/secrets/temp-anchor`);
      await eventually(async () => (await whoami(asToken(bound.status.token))).status === 401, 1000);
      expect(await review(bound.status.token)).to.deep.equal({ user: {}, error: 'service account token has been invalidated' });
      expect((await whoami(asToken(plain.status.token))).status).to.equal(201);
      await del(`/api/v1/namespaces/${ns}/serviceaccounts/temp`);
      await eventually(async () => (await whoami(asToken(plain.status.token))).status === 401, 1000);
      expect(await review(plain.status.token)).to.deep.equal({ user: {}, error: 'serviceaccounts "temp" not found' });
      const again = await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'temp' } });
      await eventually(async () => (await review(plain.status.token)).error !== 'serviceaccounts "temp" not found', 1000);
      expect((await review(plain.status.token)).error).to.match(new RegExp(`^service account UID \\(${again.metadata.uid}\\) does not match claim \\(`));
    });

    it('a Pod binding needs a Pod (none are served yet)', async () => {
      const r = await call<Status>(`/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, admin, { method: 'POST', body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } } } });
      expect(r.status).to.equal(404);
      expect(r.body.message).to.equal('pods "p" not found');
    });

    it('legacy Secret tokens: the tokens controller fills the Secret; deleting it revokes the token', async () => {
      await create(`/api/v1/namespaces/${ns}/secrets`, {
        metadata: { name: 'robot-token', annotations: { 'kubernetes.io/service-account.name': 'robot' } }, type: 'kubernetes.io/service-account-token',
      });
      let data: Record<string, string> = {};
      await eventually(async () => {
        const s = await call<{ data?: Record<string, string>; metadata: { annotations: Record<string, string> } }>(`/api/v1/namespaces/${ns}/secrets/robot-token`, admin);
        data = s.body.data ?? {};
        return data.token !== undefined;
      }, 5000);
      expect(Buffer.from(data['namespace']!, 'base64').toString()).to.equal(ns);
      expect(Buffer.from(data['ca.crt']!, 'base64').toString()).to.equal(cluster.pki.ca.cert);
      const token = Buffer.from(data.token!, 'base64').toString();
      expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).to.include({
        iss: 'kubernetes/serviceaccount', sub: `system:serviceaccount:${ns}:robot`,
        'kubernetes.io/serviceaccount/namespace': ns, 'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      });
      expect((await whoami(asToken(token))).user?.username).to.equal(`system:serviceaccount:${ns}:robot`);
      await del(`/api/v1/namespaces/${ns}/secrets/robot-token`);
      await eventually(async () => (await whoami(asToken(token))).status === 401, 1000);
      expect(await review(token)).to.deep.equal({ user: {}, error: 'token has been invalidated' });
    });

    it('a token Secret naming no existing account is deleted by the tokens controller', async () => {
      await create(`/api/v1/namespaces/${ns}/secrets`, {
        metadata: { name: 'orphan-token', annotations: { 'kubernetes.io/service-account.name': 'nobody' } }, type: 'kubernetes.io/service-account-token',
      });
      await eventually(async () => (await call(`/api/v1/namespaces/${ns}/secrets/orphan-token`, admin)).status === 404, 5000);
    });

    it('every namespace gets a default ServiceAccount', async () => {
      await eventually(async () => (await call(`/api/v1/namespaces/${ns}/serviceaccounts/default`, admin)).status === 200, 5000);
    });
  });

  describe('bootstrap tokens', () => {
    const secret = (id: string, data: Record<string, string>) => ({
      apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token',
      metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
      stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', ...data },
    });
    const path = '/api/v1/namespaces/kube-system/secrets';

    it('a valid token is system:bootstrap:<id> in system:bootstrappers and its extra groups; seen and revoked within a second', async () => {
      const token = 'aaaaaa.0123456789abcdef';
      expect401(await call('/api/v1/namespaces', asToken(token)));
      await create(path, secret('aaaaaa', { 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:worker' }));
      const seenIn = await eventually(async () => (await whoami(asToken(token))).status === 201, 1000);
      expect((await whoami(asToken(token))).user).to.deep.equal({
        username: 'system:bootstrap:aaaaaa', groups: ['system:bootstrappers', 'system:bootstrappers:worker', 'system:authenticated'],
      });
      expect401(await call('/api/v1/namespaces', asToken('aaaaaa.ffffffffffffffff')));
      await del(`${path}/bootstrap-token-aaaaaa`);
      const goneIn = await eventually(async () => (await whoami(asToken(token))).status === 401, 1000);
      expect(seenIn).to.be.below(1000);
      expect(goneIn).to.be.below(1000);
    });

    it('expired, not for authentication, or with a bad extra group: 401', async () => {
      await create(path, secret('bbbbbb', { 'usage-bootstrap-authentication': 'true', expiration: '2000-01-01T00:00:00Z' }));
      await create(path, secret('cccccc', { 'usage-bootstrap-signing': 'true' }));
      await create(path, secret('dddddd', { 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:masters' }));
      await create(path, secret('eeeeee', { 'usage-bootstrap-authentication': 'true' }));
      await eventually(async () => (await whoami(asToken('eeeeee.0123456789abcdef'))).status === 201, 1000);
      for (const id of ['bbbbbb', 'cccccc', 'dddddd']) expect401(await call('/api/v1/namespaces', asToken(`${id}.0123456789abcdef`)));
    });

    it('the token cleaner deletes expired token Secrets', async () => {
      await create(path, secret('ffffff', { 'usage-bootstrap-authentication': 'true', expiration: new Date(Date.now() + 1500).toISOString().replace(/\.\d+Z$/, 'Z') }));
      await eventually(async () => (await call(`${path}/bootstrap-token-ffffff`, admin)).status === 404, 5000);
    });

    it('the bootstrap signer signs cluster-info with every signing token and drops removed ones', async () => {
      const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters: []\n';
      await create('/api/v1/namespaces/kube-public/configmaps', { metadata: { name: 'cluster-info' }, data: { kubeconfig } });
      await create(path, secret('gggggg', { 'usage-bootstrap-signing': 'true' }));
      let sig = '';
      await eventually(async () => {
        const cm = await call<{ data: Record<string, string> }>('/api/v1/namespaces/kube-public/configmaps/cluster-info', admin);
        sig = cm.body.data['jws-kubeconfig-gggggg'] ?? '';
        return sig !== '';
      }, 5000);
      const { detachedSignatureIsValid } = await import('../../pkg/controller/bootstrap/jws.js');
      expect(await detachedSignatureIsValid(sig, kubeconfig, '0123456789abcdef')).to.equal(true);
      // cccccc (signing, created above) signs too; non-signing tokens do not.
      const cm = await call<{ data: Record<string, string> }>('/api/v1/namespaces/kube-public/configmaps/cluster-info', admin);
      expect(Object.keys(cm.body.data).filter((k) => k.startsWith('jws-')).sort()).to.deep.equal(['jws-kubeconfig-cccccc', 'jws-kubeconfig-gggggg']);
      await del(`${path}/bootstrap-token-gggggg`);
      await eventually(async () => {
        const after = await call<{ data: Record<string, string> }>('/api/v1/namespaces/kube-public/configmaps/cluster-info', admin);
        return !('jws-kubeconfig-gggggg' in after.body.data);
      }, 5000);
    });
  });

  describe('OpenID Connect', () => {
    const good = { sub: 'u-42', aud: 'kubernetes', groups: ['admins', 'dev'], hd: 'example.com' };

    it('sub with the issuer prefix, groups with their prefix', async () => {
      const r = await whoami(asToken(await oidc.sign(good)));
      expect(r.status, r.res.text).to.equal(201);
      expect(r.user).to.deep.equal({ username: `${oidc.url}#u-42`, groups: ['oidc:admins', 'oidc:dev', 'system:authenticated'] });
    });

    it('refuses wrong audience, expiry, bad signature, missing required claim, disallowed algorithm', async () => {
      const now = Math.floor(Date.now() / 1000);
      const stranger = oidc.addKey('RS256', false);
      const cases: Array<[string, string | RegExp]> = [
        [await oidc.sign({ ...good, aud: 'other' }), 'oidc: verify token: oidc: expected audience "kubernetes" got ["other"]'],
        [await oidc.sign({ ...good, exp: now - 10 }), /^oidc: verify token: oidc: token is expired \(Token Expiry: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\)$/],
        [await oidc.sign(good, { key: stranger, kid: oidc.keys[0]!.kid }), 'oidc: verify token: failed to verify signature: failed to verify id token signature'],
        [await oidc.sign({ ...good, hd: 'evil.com' }), 'oidc: required claim hd value does not match. Got = evil.com, want = example.com'],
        [await oidc.sign({ sub: 'x', aud: 'kubernetes' }), 'oidc: required claim hd not present in ID token'],
        [await oidc.sign(good, { alg: 'RS384' }), 'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256" "ES256"] got "RS384"'],
      ];
      for (const [token, why] of cases) {
        expect401(await call('/api/v1/namespaces', asToken(token)));
        const st = await review(token);
        expect(st.authenticated).to.equal(undefined);
        if (typeof why === 'string') expect(st.error).to.equal(why);
        else expect(st.error).to.match(why);
      }
    });

    it('a token from another issuer is not OIDC\'s to judge', async () => {
      const token = await oidc.sign({ ...good, iss: 'https://elsewhere.example' });
      expect(await review(token)).to.deep.equal({ user: {}, error: 'invalid bearer token' });
    });

    it('fetches the keys again for a key id it does not know (key rotation), ES256 included', async () => {
      const rotated = oidc.addKey('ES256', false);
      const token = await oidc.sign(good, { key: rotated });
      expect401(await call('/api/v1/namespaces', asToken(token)));
      const before = oidc.jwksFetches();
      oidc.publish(rotated.kid);
      expect((await whoami(asToken(token))).user?.username).to.equal(`${oidc.url}#u-42`);
      expect(oidc.jwksFetches()).to.be.greaterThan(before);
    });

    it('azp may name another client when the audience includes ours', async () => {
      const r = await whoami(asToken(await oidc.sign({ ...good, aud: ['mobile-app', 'kubernetes'], azp: 'mobile-app' })));
      expect(r.status, r.res.text).to.equal(201);
    });
  });

  describe('token webhook', () => {
    it('sends a v1beta1 TokenReview and takes the user from the reply', async () => {
      expect((await whoami(asToken('wh-good'))).user).to.deep.equal({ username: 'wh-user', uid: 'wh-1', groups: ['wh-group', 'system:authenticated'], extra: { scopes: ['read'] } });
      expect(webhook.versions.at(-1)).to.equal('authentication.k8s.io/v1beta1');
    });

    it('caches decisions: a second use does not call the webhook again', async () => {
      const before = webhook.calls.get('wh-good') ?? 0;
      for (let i = 0; i < 3; i++) expect((await whoami(asToken('wh-good'))).status).to.equal(201);
      expect(webhook.calls.get('wh-good')).to.equal(before);
    });

    it('a refusal is 401; the webhook\'s error, or the generic message, shows in a review', async () => {
      expect401(await call('/api/v1/namespaces', asToken('wh-refused')));
      expect(await review('wh-refused')).to.deep.equal({ user: {}, error: 'token revoked upstream' });
      expect401(await call('/api/v1/namespaces', asToken('wh-silent')));
      expect(await review('wh-silent')).to.deep.equal({ user: {}, error: 'invalid bearer token' });
    });

    it('a reply of another version is refused', async () => {
      expect401(await call('/api/v1/namespaces', asToken('wh-other-version')));
      expect((await review('wh-other-version')).error).to.equal('the webhook answered with authentication.k8s.io/v1, Kind=TokenReview; expected authentication.k8s.io/v1beta1, Kind=TokenReview');
    });

    it('audiences: the webhook\'s answer must meet the ones asked for', async () => {
      expect(await review('wh-aud', ['wh-aud'])).to.deep.include({ authenticated: true, audiences: ['wh-aud'] });
      expect401(await call('/api/v1/namespaces', asToken('wh-aud')));
    });

    it('webhook down: 401 with the connection error in a review; cached answers still hold', async () => {
      await webhook.stop();
      expect401(await call('/api/v1/namespaces', asToken('wh-new-token')));
      expect((await review('wh-new-token')).error).to.match(/^Post "https:\/\/127\.0\.0\.1:\d+\/authenticate": connect ECONNREFUSED/);
      expect((await whoami(asToken('wh-good'))).status).to.equal(201);
    });
  });

  describe('authenticating proxy', () => {
    const headers = { 'X-Remote-User': 'proxied-jane', 'X-Remote-Group': 'proxied-group', 'X-Remote-Extra-Acme.com%2FProject': 'apollo' };

    it('honours the identity headers from the proxy certificate, extra keys decoded and lower-cased', async () => {
      const r = await whoami({ ca: cluster.pki.ca.cert, cert: proxy.cert, key: proxy.key }, headers);
      expect(r.status, r.res.text).to.equal(201);
      expect(r.user).to.deep.equal({ username: 'proxied-jane', groups: ['proxied-group', 'system:authenticated'], extra: { 'acme.com/project': ['apollo'] } });
    });

    it('ignores the headers from anyone else: a client certificate is its own identity, a CN not allowed is 401', async () => {
      const spoof = await whoami(cluster.credentialsFor('carol'), headers);
      expect(spoof.user?.username).to.equal('carol');
      const tok = await whoami(asToken('tok-alice'), headers);
      expect(tok.user?.username).to.equal('alice');
      expect401((await whoami({ ca: cluster.pki.ca.cert, cert: otherProxy.cert, key: otherProxy.key }, headers)).res);
      expect401((await whoami({ ca: cluster.pki.ca.cert }, headers)).res);
    });
  });

  describe('issuer discovery', () => {
    it('/.well-known/openid-configuration and /openid/v1/jwks let an OIDC client verify our tokens', async () => {
      const conf = await call<Record<string, unknown>>('/.well-known/openid-configuration', admin);
      expect(conf.status).to.equal(200);
      expect(conf.headers['content-type']).to.match(/^application\/json/);
      expect(conf.headers['cache-control']).to.equal('public, max-age=3600');
      expect(conf.body).to.deep.equal({
        issuer: saIssuer, jwks_uri: `${url}/openid/v1/jwks`, response_types_supported: ['id_token'],
        subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['ES256', 'RS256'],
      });
      const jwks = await request<{ keys: Array<Record<string, string>> }>(conf.body.jwks_uri as string, admin);
      expect(jwks.headers['content-type']).to.match(/^application\/jwk-set\+json/);
      expect(jwks.body.keys.map((k) => `${k.kty}/${k.alg}/${k.use}`)).to.deep.equal(['RSA/RS256/sig', 'EC/ES256/sig']);
      // An OIDC client: keys from the JWKS, issuer and audience from the discovery document.
      const { createLocalJWKSet, jwtVerify } = await import('jose');
      const ns = `authn-disc-${Date.now().toString(36)}`;
      await create('/api/v1/namespaces', { metadata: { name: ns } });
      await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'reader' } });
      const tr = await call<{ status: { token: string } }>(`/api/v1/namespaces/${ns}/serviceaccounts/reader/token`, admin, { method: 'POST', body: { spec: { audiences: ['my-oidc-client'] } } });
      const verified = await jwtVerify(tr.body.status.token, createLocalJWKSet(jwks.body as never), { issuer: conf.body.issuer as string, audience: 'my-oidc-client' });
      expect(verified.payload.sub).to.equal(`system:serviceaccount:${ns}:reader`);
    });
  });
});
