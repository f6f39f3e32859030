// Bugs the request fuzzer (test/fuzz) found, pinned down one by one.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type TlsCredentials } from '../harness/index.js';
import { createSender } from '../fuzz/send.js';

describe('fuzz findings', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  let url: string;
  let admin: TlsCredentials;
  before(async () => {
    cluster = await startReplicas(1);
    url = cluster.urls[0]!;
    admin = cluster.credentialsFor('admin');
    const ns = await request(`${url}/api/v1/namespaces`, { ...admin, method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ff' } } });
    expect(ns.status).to.equal(201);
  });
  after(() => cluster?.stop());

  const cm = (name: string, data: Record<string, string> = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

  describe('a write whose answer cannot be rendered (406) is not made', () => {
    const bad = { Accept: 'text/html' };

    it('create and update', async () => {
      const created = await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', headers: bad, body: cm('neg-1') });
      expect(created.status).to.equal(406);
      expect(created.body).to.include({ kind: 'Status', reason: 'NotAcceptable' });
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/neg-1`, admin)).status).to.equal(404);

      expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', body: cm('neg-2') })).status).to.equal(201);
      const updated = await request(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, { ...admin, method: 'PUT', headers: bad, body: cm('neg-2', { k: 'changed' }) });
      expect(updated.status).to.equal(406);
      const patched = await request(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, {
        ...admin, method: 'PATCH', headers: { ...bad, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { k: 'patched' } }),
      });
      expect(patched.status).to.equal(406);
      const now = await request<{ data: Record<string, string> }>(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, admin);
      expect(now.body.data).to.deep.equal({ k: 'v' });
    });

    it('delete and deletecollection', async () => {
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', body: cm('neg-3') })).status).to.equal(201);
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/neg-3`, { ...admin, method: 'DELETE', headers: bad })).status).to.equal(406);
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'DELETE', headers: bad })).status).to.equal(406);
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/neg-3`, admin)).status).to.equal(200);
    });

    // The chaos campaign's one unexplained change: `PUT .../dep-0/scale` with `Accept: {}`
    // and the YAML body `a: b` answered 406 and had set replicas to 0 (the scale route
    // skipped the early negotiation, the name check and strict decoding).
    it('the scale subresource too, which also checks the name and decodes strictly', async () => {
      const deployments = `${url}/apis/apps/v1/namespaces/ff/deployments`;
      const dep = {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'neg-dep' },
        spec: { replicas: 3, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      };
      expect((await request(deployments, { ...admin, method: 'POST', body: dep })).status).to.equal(201);
      const scale = (body: string, query = '', headers: Record<string, string> = {}) =>
        request<{ reason: string; message: string }>(`${deployments}/neg-dep/scale${query}`, { ...admin, method: 'PUT', headers: { 'Content-Type': 'application/yaml', ...headers }, body });

      const unrenderable = await scale('a: b\n', '?fieldValidation=Strict', { Accept: '{}' });
      expect(unrenderable.status).to.equal(406);
      expect(unrenderable.body).to.include({ reason: 'NotAcceptable' });
      const unnamed = await scale('spec: {replicas: 1}\n');
      expect(unnamed.body).to.include({ reason: 'BadRequest', message: 'the name of the object () does not match the name on the URL (neg-dep)' });
      const strict = await scale('metadata: {name: neg-dep}\nspec: {replicas: 1}\na: b\n', '?fieldValidation=Strict');
      expect(strict.body).to.include({ reason: 'BadRequest', message: 'Scale in version "v1" cannot be handled as a Scale: strict decoding error: unknown field "a"' });
      const now = await request<{ spec: { replicas: number } }>(`${deployments}/neg-dep`, admin);
      expect(now.body.spec.replicas).to.equal(3);

      const warned = await scale('metadata: {name: neg-dep}\nspec: {replicas: 2}\na: b\n');
      expect(warned.status).to.equal(200);
      expect(warned.headers.warning).to.equal('299 - "unknown field \\"a\\""');
      expect((await request<{ spec: { replicas: number } }>(`${deployments}/neg-dep`, admin)).body.spec.replicas).to.equal(2);
    });
  });

  describe('YAML bodies go-yaml refuses are a 400, not a 500', () => {
    const post = (body: string, contentType = 'application/yaml') =>
      request<{ reason: string; message: string }>(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', headers: { 'Content-Type': contentType }, body });

    it('an anchor that contains itself', async () => {
      const res = await post('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cyc}\ndata: &a {k: *a}\n');
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ reason: 'BadRequest', message: "error converting YAML to JSON: yaml: anchor 'a' value contains itself" });
      const applied = await request<{ reason: string }>(`${url}/api/v1/namespaces/ff/configmaps/cyc?fieldManager=t`, {
        ...admin, method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: cyc, labels: *m}\n',
      });
      expect(applied.status).to.equal(400);
    });

    it('alias expansion past the guard (billion laughs)', async () => {
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i <= 6; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
      const res = await post(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\nbinaryData:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/^error converting YAML to JSON: yaml: document contains excessive aliasing/);
    });
  });

  it('a resourceVersion beyond uint64 is a 400 at once, not a 3 s wait for revision 1e+23', async () => {
    const t0 = Date.now();
    const res = await request<{ reason: string; message: string }>(`${url}/api/v1/namespaces/ff/configmaps/neg-2?resourceVersion=99999999999999999999999`, admin);
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ reason: 'BadRequest', message: 'invalid resource version: 99999999999999999999999' });
    expect(Date.now() - t0).to.be.lessThan(2000);
    const list = await request(`${url}/api/v1/namespaces/ff/configmaps?resourceVersion=18446744073709551616`, admin);
    expect(list.status).to.equal(400);
  });

  it('request headers up to 1 MiB are read (Go\'s MaxHeaderBytes), longer ones get a 431', async () => {
    // A 64 KiB bearer token is past Node's 16 KiB default: it must reach authentication.
    const long = await request<{ reason: string }>(`${url}/api/v1/namespaces`, { ca: admin.ca, token: 'x'.repeat(64 * 1024) });
    expect(long.status).to.equal(401);
    expect(long.body).to.include({ reason: 'Unauthorized' });
    const longPath = await request<{ reason: string }>(`${url}/api/v1/namespaces/ff/configmaps/${'a'.repeat(40_000)}`, admin);
    expect(longPath.status).to.equal(404);
    const tooLong = await request(`${url}/api/v1/namespaces`, { ...admin, headers: { 'X-Big': 'y'.repeat((1 << 20) + 8192) } }).catch((e: Error) => ({ status: 0, text: e.message }));
    expect(tooLong.status).to.equal(431);
  });

  // The campaign lost its own namespace to DELETEs its dry-run guard did not recognise; sent
  // raw (the harness's client would normalise them), these are upstream's answers.
  it('a DELETE by a request target with a \'#\' or an empty segment is read as upstream reads it', async () => {
    const s = createSender(url, admin, 1);
    const make = async (name: string): Promise<void> => {
      const res = await request(`${url}/api/v1/namespaces`, { ...admin, method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
      expect(res.status, res.text).to.equal(201);
    };
    const alive = async (name: string): Promise<boolean> => {
      const res = await request<{ metadata: { deletionTimestamp?: string } }>(`${url}/api/v1/namespaces/${name}`, admin);
      return res.status === 200 && !res.body.metadata.deletionTimestamp;
    };
    const del = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const out = await s.send({ method: 'DELETE', path, headers: {} }, 15_000);
      if (out.kind !== 'response') throw new Error(`${path}: ${out.kind}`);
      return { status: out.status, body: JSON.parse(out.body.toString('utf8')) as Record<string, unknown> };
    };
    try {
      for (const name of ['hash-1', 'hash-2', 'slash-1', 'slash-2']) await make(name);
      // The '#' is part of the name, as Go's url.ParseRequestURI leaves it.
      const hashed = await del('/api/v1/namespaces/hash-1#x');
      expect(hashed.status).to.equal(404);
      expect(hashed.body).to.include({ kind: 'Status', reason: 'NotFound', message: 'namespaces "hash-1#x" not found' });
      // ... and of the query: what follows it still counts.
      const dry = await del('/api/v1/namespaces/hash-2?x=#&dryRun=All');
      expect(dry.status).to.equal(200);
      // An empty segment matches no route (go-restful): 404, nothing deleted.
      for (const path of ['//api/v1/namespaces/slash-1', '/api/v1//namespaces/slash-2', '/api/v1/namespaces//slash-2']) {
        const res = await del(path);
        expect(res.status, path).to.equal(404);
        expect(res.body, path).to.include({ kind: 'Status', reason: 'NotFound', message: 'the server could not find the requested resource' });
      }
      for (const name of ['hash-1', 'hash-2', 'slash-1', 'slash-2']) expect(await alive(name), name).to.equal(true);
      // A trailing slash is still the object's path, as upstream trims it.
      expect((await del('/api/v1/namespaces/slash-1/')).status).to.equal(200);
      expect(await alive('slash-1')).to.equal(false);
    } finally {
      s.close();
    }
  });

  it('a DeleteOptions body whose kind or apiVersion is not a string is a 400 (an object kind whose toString is no function was a 500)', async () => {
    const s = createSender(url, admin, 1);
    expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', body: cm('kind-keep') })).status).to.equal(201);
    try {
      const cases: Array<[string, string, string, string]> = [
        ['DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles', 'application/apply-patch+yaml', 'apiVersion: "apps/v1"\nkind: {"toString":{"a":1}}\n'],
        ['DELETE', '/api/v1/namespaces/ff/configmaps/kind-keep', 'application/json', '{"kind":{"toString":1}}'],
        ['DELETE', '/api/v1/namespaces/ff/configmaps/kind-keep', 'application/json', '{"apiVersion":["v1"]}'],
      ];
      const words = ['object', 'object', 'array'];
      for (const [i, [method, path, ct, body]] of cases.entries()) {
        const out = await s.send({ method, path, headers: { 'Content-Type': ct }, body: Buffer.from(body) }, 15_000);
        expect(out.kind).to.equal('response');
        if (out.kind !== 'response') continue;
        const field = body.includes('apiVersion":[') ? 'apiVersion' : 'kind';
        expect(out.status, body).to.equal(400);
        expect(JSON.parse(out.body.toString('utf8'))).to.include({
          kind: 'Status', reason: 'BadRequest', code: 400,
          message: `couldn't get version/kind; json parse error: json: cannot unmarshal ${words[i]} into Go struct field .${field} of type string`,
        });
      }
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/kind-keep`, admin)).status).to.equal(200);
      expect((await request(`${url}/apis/rbac.authorization.k8s.io/v1/clusterroles/admin`, admin)).status).to.equal(200);
    } finally {
      s.close();
    }
  });

  it('an object body whose apiVersion or kind is not a string is a 400 for create and update, a 4xx for patches (was a 500)', async () => {
    const s = createSender(url, admin, 1);
    expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', body: cm('typemeta') })).status).to.equal(201);
    try {
      const body = '{"apiVersion":{"toString":1},"kind":"ConfigMap","metadata":{"name":"typemeta"}}';
      const message = 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: '
        + 'json: cannot unmarshal object into Go struct field .apiVersion of type string ({"apiVersion":{"toString":1}," ...)';
      for (const [method, path] of [['POST', '/api/v1/namespaces/ff/configmaps'], ['PUT', '/api/v1/namespaces/ff/configmaps/typemeta']] as const) {
        const out = await s.send({ method, path, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(body) }, 15_000);
        expect(out.kind === 'response' && out.status, method).to.equal(400);
        if (out.kind === 'response') expect(JSON.parse(out.body.toString('utf8'))).to.include({ reason: 'BadRequest', message });
      }
      for (const ct of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
        const out = await s.send({ method: 'PATCH', path: '/api/v1/namespaces/ff/configmaps/typemeta', headers: { 'Content-Type': ct }, body: Buffer.from('{"kind":{"valueOf":{},"toString":{}}}') }, 15_000);
        expect(out.kind === 'response' && out.status >= 400 && out.status < 500, `${ct}: ${out.kind === 'response' ? out.body.toString('utf8') : out.kind}`).to.equal(true);
      }
    } finally {
      s.close();
    }
  });

  it('a JSON body nested past Go\'s 10,000 levels is a 400, not a stack overflow', async () => {
    const depth = 100_000;
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const res = await request<{ reason: string; message: string }>(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ reason: 'BadRequest', message: "error decoding body: invalid character '{' exceeded max depth" });
    const put = await request(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, { ...admin, method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: body.replace('"deep"', '"neg-2"') });
    expect(put.status).to.equal(400);
  });
});
