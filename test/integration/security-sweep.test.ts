// Security sweep: every endpoint discovery lists (each resource, verb and subresource) and
// the non-resource paths, without credentials and as a user with no grants, answer 401/403
// except what upstream's bootstrap policy opens (system:public-info-viewer to everyone,
// system:discovery and system:basic-user to authenticated users); path tricks never reach
// an object the same user cannot read by its canonical path; TLS below the configured
// minimum is refused.
import * as tls from 'node:tls';
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type TlsCredentials } from '../harness/index.js';
import { createSender, type RawOutcome, type Sender } from '../fuzz/send.js';

/** Upstream v1.28's NonResourceURLs of system:public-info-viewer (bound to everyone). */
const publicInfo = ['/healthz', '/livez', '/readyz', '/version', '/version/'];
/** ...and of system:discovery (bound to system:authenticated). */
const discovery = [...publicInfo, '/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*'];
/** system:basic-user: the self reviews every authenticated user may create. */
const selfReviews = ['authorization.k8s.io/selfsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews', 'authentication.k8s.io/selfsubjectreviews'];

const nonResourcePaths = ['/', '/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/version', '/version/', '/healthz', '/livez', '/readyz',
  '/healthz/ping', '/livez/ping', '/readyz/ping', '/readyz/etcd', '/healthz/etcd', '/metrics', '/openapi/v2', '/openapi/v3', '/openapi/v3/api/v1',
  '/.well-known/openid-configuration', '/openid/v1/jwks', '/logs', '/logs/', '/debug/pprof/', '/debug/flags/v', '/flowcontrol/', '/apis/flowcontrol.apiserver.k8s.io'];

function nonResourceAllowed(path: string, rules: string[]): boolean {
  return rules.some((r) => (r.endsWith('*') ? path.startsWith(r.slice(0, -1)) : path === r));
}

interface Endpoint { method: string; path: string; what: string; resource: string }

interface APIResource { name: string; namespaced: boolean; verbs: string[] }

/** Every resource, verb and subresource discovery lists, as requests in namespace `sweep`. */
async function endpointsFromDiscovery(url: string, admin: TlsCredentials): Promise<Endpoint[]> {
  const gvs: Array<{ prefix: string; group: string }> = [{ prefix: '/api/v1', group: '' }];
  const apis = await request<{ groups: Array<{ name: string; versions: Array<{ groupVersion: string }> }> }>(`${url}/apis`, admin);
  for (const g of apis.body.groups) for (const v of g.versions) gvs.push({ prefix: `/apis/${v.groupVersion}`, group: g.name });
  const out: Endpoint[] = [];
  for (const gv of gvs) {
    const list = await request<{ resources: APIResource[] }>(`${url}${gv.prefix}`, admin);
    for (const r of list.body.resources) {
      const [res, sub] = r.name.split('/') as [string, string | undefined];
      const base = `${gv.prefix}${r.namespaced ? '/namespaces/sweep' : ''}/${res}`;
      const resource = `${gv.group}/${res}`;
      const item = `${base}/x`;
      if (sub) {
        const path = `${item}/${sub}`;
        const methods = r.verbs.length === 0 ? ['GET', 'POST'] : r.verbs.map((v) => ({ get: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE' } as Record<string, string>)[v]).filter(Boolean) as string[];
        for (const method of methods.length ? methods : ['GET']) out.push({ method, path, what: `${method} ${r.name}`, resource: `${resource}/${sub}` });
        continue;
      }
      for (const verb of r.verbs) {
        const e = (method: string, path: string): void => { out.push({ method, path, what: `${verb} ${gv.prefix} ${r.name}`, resource }); };
        switch (verb) {
          case 'list': e('GET', base); break;
          case 'watch': e('GET', `${base}?watch=true&timeoutSeconds=1`); break;
          case 'get': e('GET', item); break;
          case 'create': e('POST', base); break;
          case 'update': e('PUT', item); break;
          case 'patch': e('PATCH', item); break;
          case 'delete': e('DELETE', item); break;
          case 'deletecollection': e('DELETE', base); break;
        }
      }
    }
  }
  return out;
}

function bodyFor(e: Endpoint): { headers: Record<string, string>; body?: Buffer } {
  if (e.method === 'PATCH') return { headers: { 'Content-Type': 'application/merge-patch+json' }, body: Buffer.from('{}') };
  if (e.method === 'POST' || e.method === 'PUT') return { headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{}') };
  return { headers: {} };
}

const statusOf = (o: RawOutcome): number | string => (o.kind === 'response' ? o.status : `${o.kind}`);

describe('security sweep', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let url: string;
  let admin: TlsCredentials;
  let endpoints: Endpoint[];
  const senders: Sender[] = [];
  const sender = (creds: TlsCredentials): Sender => {
    const s = createSender(url, creds, 16);
    senders.push(s);
    return s;
  };
  before(async () => {
    cluster = await startReplicas(1, {
      authorizationMode: 'RBAC', anonymousAuth: true,
      tokens: [{ token: 'nobody-token', name: 'nobody' }, { token: 'reader-token', name: 'reader' }],
    });
    url = cluster.urls[0]!;
    admin = cluster.credentialsFor('admin');
    endpoints = await endpointsFromDiscovery(url, admin);
  });
  after(async () => {
    for (const s of senders) s.close();
    await cluster?.stop();
  });

  /** Sends every request, 16 at a time; returns the unexpected answers. */
  async function sweep(s: Sender, token: string | undefined, expected: (e: Endpoint) => (status: number) => boolean): Promise<string[]> {
    const bad: string[] = [];
    for (let i = 0; i < endpoints.length; i += 16) {
      await Promise.all(endpoints.slice(i, i + 16).map(async (e) => {
        const { headers, body } = bodyFor(e);
        if (token) headers['Authorization'] = `Bearer ${token}`;
        const out = await s.send({ method: e.method, path: e.path, headers, body }, 15_000);
        if (out.kind !== 'response' || !expected(e)(out.status)) bad.push(`${e.what}: ${e.method} ${e.path} -> ${statusOf(out)}`);
      }));
    }
    return bad;
  }

  it('discovery lists enough to be a sweep', () => {
    expect(endpoints.length).to.be.greaterThan(300);
    expect(endpoints.some((e) => e.path.endsWith('/pods/x/exec'))).to.equal(true);
    expect(endpoints.some((e) => e.path.includes('/watch') || e.path.includes('watch=true'))).to.equal(true);
  });

  it('anonymous requests to every resource endpoint are 403 Forbidden', async () => {
    const bad = await sweep(sender({ ca: admin.ca }), undefined, () => (st) => st === 403);
    expect(bad).to.deep.equal([]);
  });

  it('a user with no grants gets 403 everywhere but the self reviews every user may create', async () => {
    const bad = await sweep(sender({ ca: admin.ca }), 'nobody-token', (e) => (st) => (
      e.method === 'POST' && selfReviews.includes(e.resource) ? st !== 401 && st !== 403 : st === 403));
    expect(bad).to.deep.equal([]);
  });

  it('a bad token is 401 everywhere, public paths included', async () => {
    const s = sender({ ca: admin.ca });
    const paths = [...endpoints.slice(0, 200).map((e) => e.path), ...nonResourcePaths];
    const bad: string[] = [];
    for (const path of paths) {
      const out = await s.send({ method: 'GET', path, headers: { Authorization: 'Bearer wrong' } }, 15_000);
      if (statusOf(out) !== 401) bad.push(`${path} -> ${statusOf(out)}`);
    }
    expect(bad).to.deep.equal([]);
  });

  it('non-resource paths: open exactly as upstream\'s bootstrap policy opens them', async () => {
    const s = sender({ ca: admin.ca });
    const bad: string[] = [];
    for (const path of nonResourcePaths) {
      for (const [who, token, rules] of [['anonymous', undefined, publicInfo], ['nobody', 'nobody-token', discovery]] as const) {
        const out = await s.send({ method: 'GET', path, headers: token ? { Authorization: `Bearer ${token}` } : {} }, 15_000);
        const st = statusOf(out);
        const open = nonResourceAllowed(path, rules as readonly string[] as string[]);
        if (open ? st === 401 || st === 403 : st !== 403) bad.push(`${who} GET ${path} -> ${st} (upstream: ${open ? 'allowed' : '403'})`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('without anonymous auth every path, public ones included, is 401', async () => {
    const closed = await startReplicas(1, { authorizationMode: 'RBAC', anonymousAuth: false });
    try {
      const s = createSender(closed.urls[0]!, { ca: closed.pki.ca.cert }, 8);
      try {
        const bad: string[] = [];
        for (const path of [...nonResourcePaths, '/api/v1/namespaces', '/apis/apps/v1/deployments']) {
          const out = await s.send({ method: 'GET', path, headers: {} }, 15_000);
          if (statusOf(out) !== 401) bad.push(`${path} -> ${statusOf(out)}`);
        }
        expect(bad).to.deep.equal([]);
      } finally {
        s.close();
      }
    } finally {
      await closed.stop();
    }
  });

  describe('path tricks', () => {
    const marker = 'S3CR3T-MARKER';
    before(async () => {
      const post = async (path: string, body: unknown): Promise<void> => {
        const res = await request(`${url}${path}`, { ...admin, method: 'POST', body });
        expect(res.status, `${path}: ${res.text}`).to.equal(201);
      };
      for (const ns of ['open', 'closed']) await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await post('/api/v1/namespaces/open/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'public' }, data: { k: 'fine' } });
      await post('/api/v1/namespaces/open/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hidden' }, stringData: { k: marker } });
      await post('/api/v1/namespaces/closed/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'topsecret' }, stringData: { k: marker } });
      await post('/api/v1/namespaces/closed/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'closedcm' }, data: { k: marker } });
      await post('/apis/rbac.authorization.k8s.io/v1/namespaces/open/roles', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
      });
      await post('/apis/rbac.authorization.k8s.io/v1/namespaces/open/rolebindings', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'cm-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' }, subjects: [{ kind: 'User', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' }],
      });
    });

    const tricks = [
      '/api/v1/namespaces/open/configmaps/../secrets/hidden',
      '/api/v1/namespaces/open/configmaps/%2e%2e/secrets/hidden',
      '/api/v1/namespaces/open/configmaps/..%2Fsecrets%2Fhidden',
      '/api/v1/namespaces/open/configmaps/public/../../secrets/hidden',
      '/api/v1/namespaces/open/configmaps/public%2F..%2F..%2Fsecrets%2Fhidden',
      '/api/v1/namespaces/open/configmaps/public/%2e%2e/%2e%2e/%2e%2e/closed/secrets/topsecret',
      '/api/v1/namespaces/open/configmaps%2F..%2F..%2Fclosed%2Fconfigmaps%2Fclosedcm',
      '/api/v1/namespaces/open/../closed/configmaps/closedcm',
      '/api/v1/namespaces/open/%2e%2e/closed/configmaps/closedcm',
      '/api/v1/namespaces/./closed/configmaps/closedcm',
      '/api/v1/namespaces/open//../closed/configmaps/closedcm',
      '//api/v1/namespaces/closed/configmaps/closedcm',
      '/api/v1/namespaces/closed/configmaps/closedcm/',
      '/api/v1/namespaces/closed/configmaps/closedcm//',
      '/api/v1/namespaces//closed/configmaps/closedcm',
      '/api/v1/namespaces/CLOSED/configmaps/closedcm',
      '/api/v1/namespaces/Open/secrets/hidden',
      '/api/v1/namespaces/open/SECRETS/hidden',
      '/API/v1/namespaces/open/secrets/hidden',
      '/api/V1/namespaces/open/secrets/hidden',
      '/api/v1/namespaces/%6fpen/secrets/hidden',
      '/api/v1/namespaces/open/secret%73/hidden',
      '/api/v1/namespaces/open/configmaps/public;/../../secrets/hidden',
      '/api/v1/namespaces/open/configmaps/public%00/../../secrets/hidden',
      '/api/v1/namespaces/open/configmaps/public%2f..%2f..%2f..%2fclosed%2fsecrets%2ftopsecret',
      '/api/v1/watch/namespaces/closed/configmaps?timeoutSeconds=1',
      '/api/v1/watch/namespaces/open/configmaps/../../closed/configmaps?timeoutSeconds=1',
      '/api/v1/namespaces/open/configmaps?fieldSelector=metadata.namespace%3Dclosed',
      '/api/v1/namespaces/open/configmaps?fieldSelector=metadata.name%3Dclosedcm,metadata.namespace%3Dclosed',
      '/api/v1/configmaps?fieldSelector=metadata.namespace%3Dopen',
      '/api/v1/namespaces/open/configmaps/public/proxy',
      '/api/v1/namespaces/open/pods/../configmaps/../secrets/hidden',
      '/apis/../api/v1/namespaces/open/secrets/hidden',
      '/apis/%2e%2e/api/v1/namespaces/open/secrets/hidden',
      '/api/v1/namespaces/open/configmaps/public/../../../../../api/v1/namespaces/closed/configmaps/closedcm',
    ];

    it('the canonical paths: the reader sees its configmap and nothing else', async () => {
      const s = sender({ ca: admin.ca });
      const get = async (path: string): Promise<RawOutcome> => s.send({ method: 'GET', path, headers: { Authorization: 'Bearer reader-token' } }, 15_000);
      expect(statusOf(await get('/api/v1/namespaces/open/configmaps/public'))).to.equal(200);
      expect(statusOf(await get('/api/v1/namespaces/open/secrets/hidden'))).to.equal(403);
      expect(statusOf(await get('/api/v1/namespaces/closed/secrets/topsecret'))).to.equal(403);
      expect(statusOf(await get('/api/v1/namespaces/closed/configmaps/closedcm'))).to.equal(403);
    });

    it(`no trick (${tricks.length} of them, as GET, and as DELETE by the reader) reaches what the canonical path denies`, async () => {
      const s = sender({ ca: admin.ca });
      const leaks: string[] = [];
      for (const path of tricks) {
        for (const method of ['GET', 'DELETE']) {
          const out = await s.send({ method, path, headers: { Authorization: 'Bearer reader-token' } }, 15_000);
          const text = out.kind === 'response' ? out.body.toString('utf8') : '';
          // The reader may get its own configmap or list, never the marker, never a 2xx delete.
          if (text.includes(marker) || text.includes(Buffer.from(marker).toString('base64'))) leaks.push(`${method} ${path} -> ${statusOf(out)} with the secret`);
          if (method === 'DELETE' && out.kind === 'response' && out.status < 300) leaks.push(`${method} ${path} -> ${out.status}`);
          if (out.kind !== 'response' || out.status >= 500) leaks.push(`${method} ${path} -> ${statusOf(out)}`);
        }
      }
      expect(leaks).to.deep.equal([]);
      // Nothing was deleted by the tricks.
      for (const p of ['/api/v1/namespaces/open/secrets/hidden', '/api/v1/namespaces/closed/secrets/topsecret', '/api/v1/namespaces/closed/configmaps/closedcm', '/api/v1/namespaces/open/configmaps/public']) {
        expect((await request(`${url}${p}`, admin)).status, p).to.equal(200);
      }
    });
  });

  describe('TLS versions', () => {
    const handshake = (port: number, o: tls.ConnectionOptions): Promise<string> => new Promise((resolve) => {
      const sock = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...o });
      sock.once('secureConnect', () => { const v = sock.getProtocol() ?? '?'; sock.destroy(); resolve(v); });
      sock.once('error', (e: NodeJS.ErrnoException) => resolve(`refused: ${e.code ?? e.message}`));
    });
    const tls11 = { minVersion: 'TLSv1' as const, maxVersion: 'TLSv1.1' as const, ciphers: 'DEFAULT@SECLEVEL=0' };

    it('this client can speak TLS 1.1 (else the next checks would prove nothing)', async () => {
      const { createServer } = await import('node:tls');
      const srv = createServer({ key: cluster.pki.serving.key, cert: cluster.pki.serving.cert, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' }, (s) => s.end());
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      try {
        expect(await handshake((srv.address() as { port: number }).port, tls11)).to.equal('TLSv1.1');
      } finally {
        srv.close();
      }
    });

    it('TLS 1.1 is refused by default (upstream\'s minimum is 1.2), TLS 1.2 and 1.3 accepted', async () => {
      const port = Number(new URL(url).port);
      expect(await handshake(port, tls11)).to.match(/^refused/);
      expect(await handshake(port, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).to.equal('TLSv1.2');
      expect(await handshake(port, { minVersion: 'TLSv1.3' })).to.equal('TLSv1.3');
    });

    it('--tls-min-version=VersionTLS13 refuses TLS 1.2', async () => {
      const strict = await startReplicas(1, { extraArgs: ['--tls-min-version=VersionTLS13'] });
      try {
        const port = Number(new URL(strict.urls[0]!).port);
        expect(await handshake(port, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).to.match(/^refused/);
        expect(await handshake(port, tls11)).to.match(/^refused/);
        expect(await handshake(port, { minVersion: 'TLSv1.3' })).to.equal('TLSv1.3');
      } finally {
        await strict.stop();
      }
    });
  });
});
