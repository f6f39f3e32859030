// Impersonation (SPEC 5.12) through HTTP: the server's app (real filters, handlers and
// etcd) with a test authorizer, so both granted and refused impersonation show, with
// upstream's 403 and 500 messages, and authorization then judging the new identity.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import pino from 'pino';
import { AdmissionChain } from '../../pkg/admission/interfaces.js';
import { BearerTokenAuthenticator } from '../../pkg/authentication/bearertoken/index.js';
import { parseTokenFile, TokenFileAuthenticator } from '../../pkg/authentication/tokenfile/index.js';
import { UnionAuthenticator } from '../../pkg/authentication/union/index.js';
import type { Attributes, Authorizer, Decision } from '../../pkg/authorization/interfaces.js';
import { createDiscoveryHandler } from '../../pkg/endpoints/discovery/index.js';
import { StoreRegistry } from '../../pkg/registry/generic/registry.js';
import { buildScheme } from '../../pkg/registry/index.js';
import { createApp } from '../../pkg/server/app.js';
import { EtcdStorage } from '../../pkg/storage/etcd/store.js';
import { createTestPki, request, testEtcdClient, uniquePrefix, type TestPki } from '../harness/index.js';

/** alice may impersonate exactly these (resource, name[, namespace | extra key]); everything else is allowed. */
const grants = new Set([
  'users/bob', 'users/system:anonymous', 'groups/g1', 'groups/system:masters', 'serviceaccounts/team/robot',
  'userextras/scopes/view', 'uids/uid-1',
]);

class TestAuthorizer implements Authorizer {
  readonly name = 'test';
  seen: Attributes[] = [];
  async authorize(a: Attributes): Promise<Decision> {
    if (a.verb === 'impersonate') {
      this.seen.push(a);
      const key = a.resource === 'serviceaccounts' ? `serviceaccounts/${a.namespace}/${a.name}`
        : a.subresource ? `${a.resource}/${a.subresource}/${a.name}` : `${a.resource}/${a.name}`;
      return a.user.name === 'alice' && grants.has(key) ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: '' };
    }
    // Authorization sees the impersonated user: bob may not list configmaps.
    if (a.user.name === 'bob' && a.resource === 'configmaps') return { decision: 'noOpinion', reason: '' };
    return { decision: 'allow', reason: '' };
  }
}

describe('impersonation over HTTP', function () {
  this.timeout(60_000);
  let dir: string;
  let pki: TestPki;
  let client: Etcd3;
  let server: Server;
  let url: string;
  const authorizer = new TestAuthorizer();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authn-imp-'));
    pki = await createTestPki(join(dir, 'pki'));
    client = await testEtcdClient();
    const scheme = buildScheme();
    const registry = new StoreRegistry(scheme, new EtcdStorage(client), uniquePrefix('authn-imp'));
    const tokens = parseTokenFile('tok-alice,alice,alice-uid,devs\ntok-eve,eve,eve-uid\n').tokens;
    const app = createApp({
      log: pino({ level: 'silent' }), outerFilters: [], authorizer, admission: new AdmissionChain(), registry,
      authenticator: new UnionAuthenticator([new BearerTokenAuthenticator([new TokenFileAuthenticator(tokens)])]),
      pathHandlers: [createDiscoveryHandler(scheme)],
    });
    server = createServer({ cert: pki.serving.cert, key: pki.serving.key }, app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    client?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** SelfSubjectReview as alice (or another token) with impersonation headers. */
  const whoami = (headers: Record<string, string> | Array<[string, string]>, token = 'tok-alice') => {
    const list = Array.isArray(headers) ? headers : Object.entries(headers);
    // Repeated headers need Node's array form.
    const h: Record<string, string | string[]> = {};
    for (const [k, v] of list) h[k] = k in h ? [...[h[k]!].flat(), v] : v;
    return request<{ status: { userInfo: Record<string, unknown> }; message?: string; code?: number; reason?: string; details?: Record<string, unknown> }>(
      `${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { ca: pki.ca.cert, token, method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, headers: h as Record<string, string> },
    );
  };

  it('acts as the user with the groups asked for, plus system:authenticated', async () => {
    const r = await whoami([['Impersonate-User', 'bob'], ['Impersonate-Group', 'g1'], ['Impersonate-Group', 'system:masters']]);
    expect(r.status, r.text).to.equal(201);
    expect(r.body.status.userInfo).to.deep.equal({ username: 'bob', groups: ['g1', 'system:masters', 'system:authenticated'] });
  });

  it('checks impersonate on each requested thing with upstream attributes', async () => {
    authorizer.seen = [];
    await whoami({ 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Uid': 'uid-1' });
    expect(authorizer.seen.map((a) => ({ r: a.resource, s: a.subresource, n: a.name, g: a.apiGroup, v: a.apiVersion, u: a.user.name, res: a.isResourceRequest }))).to.deep.equal([
      { r: 'users', s: '', n: 'bob', g: '', v: '', u: 'alice', res: true },
      { r: 'userextras', s: 'scopes', n: 'view', g: 'authentication.k8s.io', v: 'v1', u: 'alice', res: true },
      { r: 'uids', s: '', n: 'uid-1', g: 'authentication.k8s.io', v: 'v1', u: 'alice', res: true },
    ]);
  });

  it('extra (percent-decoded, lower-cased keys) and uid are carried', async () => {
    const r = await whoami({ 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Uid': 'uid-1' });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.status.userInfo).to.deep.equal({ username: 'bob', uid: 'uid-1', groups: ['system:authenticated'], extra: { scopes: ['view'] } });
  });

  it('a service account brings its groups unless groups are given', async () => {
    const r = await whoami({ 'Impersonate-User': 'system:serviceaccount:team:robot' });
    expect(r.body.status.userInfo).to.deep.equal({
      username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
    const g = await whoami({ 'Impersonate-User': 'system:serviceaccount:team:robot', 'Impersonate-Group': 'g1' });
    expect(g.body.status.userInfo).to.deep.equal({ username: 'system:serviceaccount:team:robot', groups: ['g1', 'system:authenticated'] });
  });

  it('impersonating system:anonymous gives system:unauthenticated', async () => {
    const r = await whoami({ 'Impersonate-User': 'system:anonymous' });
    expect(r.body.status.userInfo).to.deep.equal({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  const refusals: Array<[string, Record<string, string>, string, Record<string, unknown>]> = [
    ['a user', { 'Impersonate-User': 'carol' },
      'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope', { name: 'carol', kind: 'users' }],
    ['a group', { 'Impersonate-User': 'bob', 'Impersonate-Group': 'g2' },
      'groups "g2" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope', { name: 'g2', kind: 'groups' }],
    ['a service account', { 'Impersonate-User': 'system:serviceaccount:team:other' },
      'serviceaccounts "other" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"', { name: 'other', kind: 'serviceaccounts' }],
    ['an extra value', { 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'admin' },
      'userextras.authentication.k8s.io "admin" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      { name: 'admin', group: 'authentication.k8s.io', kind: 'userextras' }],
    ['a uid', { 'Impersonate-User': 'bob', 'Impersonate-Uid': 'uid-2' },
      'uids.authentication.k8s.io "uid-2" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
      { name: 'uid-2', group: 'authentication.k8s.io', kind: 'uids' }],
  ];
  for (const [what, headers, message, details] of refusals) {
    it(`refuses impersonating ${what} without permission: 403 with upstream's message`, async () => {
      const r = await whoami(headers);
      expect(r.status, r.text).to.equal(403);
      expect(r.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message });
      expect(r.body.details).to.deep.equal(details);
    });
  }

  it('someone without any impersonate permission is refused too', async () => {
    const r = await whoami({ 'Impersonate-User': 'bob' }, 'tok-eve');
    expect(r.status).to.equal(403);
    expect(r.body.message).to.equal('users "bob" is forbidden: User "eve" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('groups, extra or uid without a user: upstream\'s plain-text 500', async () => {
    const r = await whoami({ 'Impersonate-Group': 'system:masters' });
    expect(r.status).to.equal(500);
    expect(r.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(r.text).to.equal('Internal Server Error: "/apis/authentication.k8s.io/v1/selfsubjectreviews": requested [{Group  system:masters    }] without impersonating a user\n');
    const u = await whoami({ 'Impersonate-Uid': 'uid-1' });
    expect(u.text).to.contain('requested [{UID  uid-1  authentication.k8s.io/v1  }] without impersonating a user');
  });

  it('authorization then judges the impersonated user', async () => {
    const r = await request<{ message: string }>(`${url}/api/v1/namespaces/default/configmaps`, { ca: pki.ca.cert, token: 'tok-alice', headers: { 'Impersonate-User': 'bob' } });
    expect(r.status).to.equal(403);
    expect(r.body.message).to.match(/^configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"/);
    const self = await request(`${url}/api/v1/namespaces/default/configmaps`, { ca: pki.ca.cert, token: 'tok-alice' });
    expect(self.status).to.equal(200);
  });
});
