import { expect } from 'chai';
import Koa from 'koa';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import type { Strategy } from '../../registry/generic/strategy.js';
import { createDiscoveryHandler } from './handler.js';
import type {
  APIGroupDiscoveryList, APIGroupDocument, APIGroupList, APIResourceList, APIVersions,
} from './types.js';

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate() {},
  prepareForUpdate() {},
  validate: () => [],
  validateUpdate: () => [],
  canonicalize() {},
  applyDefaults() {},
};
const crud: ResourceDef['verbs'] = ['watch', 'create', 'get', 'list', 'update', 'patch', 'delete', 'deletecollection'];

function def(d: Omit<ResourceDef, 'strategy'>): ResourceDef {
  return { ...d, strategy };
}

function testScheme(): ResourceScheme {
  const s = new ResourceScheme();
  s.register(def({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', shortNames: ['cm'], namespaced: true, verbs: crud }));
  s.register(def({
    group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', singular: 'namespace', shortNames: ['ns'], namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [{ name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] }, { name: 'finalize', kind: 'Namespace', verbs: ['update'] }],
  }));
  s.register(def({
    group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', singular: 'serviceaccount', shortNames: ['sa'], namespaced: true, verbs: crud,
    subresources: [{ name: 'token', kind: 'TokenRequest', verbs: ['create'] }],
  }));
  s.register(def({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', singular: 'role', namespaced: true, verbs: crud }));
  s.register(def({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', singular: 'clusterrole', namespaced: false, verbs: crud }));
  s.register(def({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview', plural: 'tokenreviews', singular: 'tokenreview', namespaced: false, verbs: ['create'], virtual: async (o) => o }));
  s.register(def({ group: 'authentication.k8s.io', version: 'v1beta1', kind: 'TokenReview', plural: 'tokenreviews', singular: 'tokenreview', namespaced: false, verbs: ['create'], virtual: async (o) => o }));
  s.register(def({
    group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', plural: 'certificatesigningrequests', singular: 'certificatesigningrequest',
    shortNames: ['csr'], namespaced: false, verbs: crud,
    subresources: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] }, { name: 'status', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] }],
  }));
  s.register(def({ group: '', version: 'v1', kind: 'Event', plural: 'events', singular: 'event', shortNames: ['ev'], namespaced: true, verbs: crud, storageResource: 'events' }));
  s.register(def({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', singular: 'event', shortNames: ['ev'], namespaced: true, verbs: crud, storageResource: 'events' }));
  s.register(def({ group: 'example.dev', version: 'v1', kind: 'Widget', plural: 'widgets', singular: 'widget', namespaced: true, verbs: crud, categories: ['all'] }));
  // Registered after v1: the storage version stays the first registration (v1).
  s.register(def({ group: 'example.dev', version: 'v1beta1', kind: 'Widget', plural: 'widgets', singular: 'widget', namespaced: true, verbs: crud, categories: ['all'] }));
  return s;
}

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('pkg/endpoints/discovery', function () {
  let server: Server;
  let base: string;

  before(async function () {
    const app = new Koa();
    const discovery = createDiscoveryHandler(testScheme());
    app.use(async (ctx) => {
      if (!(await discovery(ctx))) {
        ctx.status = 404;
        ctx.body = 'fallthrough';
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(function () {
    server.close();
  });

  async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(base + path, { headers });
  }

  it('serves /api as APIVersions without apiVersion, with the server address', async function () {
    const res = await get('/api');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json');
    const text = await res.text();
    expect(text.endsWith('\n')).to.equal(true);
    const body = JSON.parse(text) as APIVersions;
    const port = (server.address() as AddressInfo).port;
    expect(body).to.deep.equal({
      kind: 'APIVersions', versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${port}` }],
    });
    expect(Object.keys(body)).to.deep.equal(['kind', 'versions', 'serverAddressByClientCIDRs']);
  });

  it('serves /apis as APIGroupList in priority order with preferred versions first', async function () {
    const res = await get('/apis');
    expect(res.status).to.equal(200);
    const body = await res.json() as APIGroupList;
    expect(body.kind).to.equal('APIGroupList');
    expect(body.apiVersion).to.equal('v1');
    // events 17750, authentication 17700, certificates 17300, rbac 17000, unknown groups 1000.
    expect(body.groups.map((g) => g.name)).to.deep.equal([
      'events.k8s.io', 'authentication.k8s.io', 'certificates.k8s.io', 'rbac.authorization.k8s.io', 'example.dev',
    ]);
    expect(body.groups[1]).to.deep.equal({
      name: 'authentication.k8s.io',
      versions: [
        { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
        { groupVersion: 'authentication.k8s.io/v1beta1', version: 'v1beta1' },
      ],
      preferredVersion: { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
    });
    expect(body.groups[4].versions.map((v) => v.version)).to.deep.equal(['v1', 'v1beta1']);
  });

  it('serves /apis/<group> as APIGroup and leaves unknown groups unhandled', async function () {
    const res = await get('/apis/rbac.authorization.k8s.io');
    expect(res.status).to.equal(200);
    expect(await res.json() as APIGroupDocument).to.deep.equal({
      kind: 'APIGroup', apiVersion: 'v1', name: 'rbac.authorization.k8s.io',
      versions: [{ groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' },
    });
    expect((await get('/apis/nope.example')).status).to.equal(404);
    expect((await get('/apis/rbac.authorization.k8s.io/v2')).status).to.equal(404);
    expect((await get('/api/v2')).status).to.equal(404);
  });

  it('serves /api/v1 with resources and subresources sorted by name', async function () {
    const body = await (await get('/api/v1')).json() as APIResourceList;
    expect(body.kind).to.equal('APIResourceList');
    expect('apiVersion' in body).to.equal(false);
    expect(body.groupVersion).to.equal('v1');
    expect(body.resources.map((r) => r.name)).to.deep.equal([
      'configmaps', 'events', 'namespaces', 'namespaces/finalize', 'namespaces/status', 'serviceaccounts', 'serviceaccounts/token',
    ]);
    const [cm, , ns, , nsStatus, , token] = body.resources;
    expect(cm).to.deep.equal({
      name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=',
    });
    expect(Object.keys(cm)).to.deep.equal(['name', 'singularName', 'namespaced', 'kind', 'verbs', 'shortNames', 'storageVersionHash']);
    expect(ns.storageVersionHash).to.equal('Q3oi5N2YM8M=');
    expect(nsStatus).to.deep.equal({ name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] });
    expect(token).to.deep.equal({
      name: 'serviceaccounts/token', singularName: '', namespaced: true,
      group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'],
    });
    expect(Object.keys(token)).to.deep.equal(['name', 'singularName', 'namespaced', 'group', 'version', 'kind', 'verbs']);
  });

  it('serves /apis/<g>/<v> with apiVersion, hashing the storage version and omitting it for virtual kinds', async function () {
    const rbac = await (await get('/apis/rbac.authorization.k8s.io/v1')).json() as APIResourceList;
    expect(rbac.apiVersion).to.equal('v1');
    expect(rbac.groupVersion).to.equal('rbac.authorization.k8s.io/v1');
    expect(rbac.resources.map((r) => [r.name, r.storageVersionHash])).to.deep.equal([
      ['clusterroles', 'bYE5ZWDrJ44='], ['roles', '7FuwZcIIItM='],
    ]);
    const authn = await (await get('/apis/authentication.k8s.io/v1beta1')).json() as APIResourceList;
    expect(authn.resources).to.deep.equal([{ name: 'tokenreviews', singularName: 'tokenreview', namespaced: false, kind: 'TokenReview', verbs: ['create'] }]);
    // events.k8s.io events share the core events' etcd location and so its storage version.
    const events = await (await get('/apis/events.k8s.io/v1')).json() as APIResourceList;
    expect(events.resources[0]).to.include({ name: 'events', storageVersionHash: 'r2yiGXH7wu8=' });
    const beta = await (await get('/apis/example.dev/v1beta1')).json() as APIResourceList;
    const v1 = await (await get('/apis/example.dev/v1')).json() as APIResourceList;
    expect(beta.resources[0].storageVersionHash).to.equal(v1.resources[0].storageVersionHash);
    expect(beta.resources[0].categories).to.deep.equal(['all']);
  });

  it('answers the aggregated document on /apis when asked, with g/v/as in Content-Type and an ETag', async function () {
    const res = await get('/apis', { Accept: aggregatedAccept });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    expect(res.headers.get('vary')).to.equal('Accept');
    const etag = res.headers.get('etag');
    expect(etag).to.match(/^"[0-9A-F]{128}"$/);
    const body = await res.json() as APIGroupDiscoveryList;
    expect(body.kind).to.equal('APIGroupDiscoveryList');
    expect(body.apiVersion).to.equal('apidiscovery.k8s.io/v2beta1');
    expect(body.metadata).to.deep.equal({});
    expect(body.items.map((i) => i.metadata.name)).to.deep.equal([
      'events.k8s.io', 'authentication.k8s.io', 'certificates.k8s.io', 'rbac.authorization.k8s.io', 'example.dev',
    ]);
    const certs = body.items[2];
    expect(certs.metadata).to.deep.equal({ name: 'certificates.k8s.io', creationTimestamp: null });
    expect(certs.versions).to.deep.equal([{
      version: 'v1',
      resources: [{
        resource: 'certificatesigningrequests',
        responseKind: { group: '', version: '', kind: 'CertificateSigningRequest' },
        scope: 'Cluster',
        singularResource: 'certificatesigningrequest',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['csr'],
        subresources: [
          { subresource: 'approval', responseKind: { group: '', version: '', kind: 'CertificateSigningRequest' }, verbs: ['get', 'patch', 'update'] },
          { subresource: 'status', responseKind: { group: '', version: '', kind: 'CertificateSigningRequest' }, verbs: ['get', 'patch', 'update'] },
        ],
      }],
      freshness: 'Current',
    }]);
    expect(body.items[1].versions?.map((v) => v.version)).to.deep.equal(['v1', 'v1beta1']);

    const again = await get('/apis', { Accept: aggregatedAccept, 'If-None-Match': etag ?? '' });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    expect(again.headers.get('etag')).to.equal(etag);
  });

  it('answers the aggregated core group on /api', async function () {
    const body = await (await get('/api', { Accept: aggregatedAccept })).json() as APIGroupDiscoveryList;
    expect(body.items).to.have.length(1);
    expect(body.items[0].metadata).to.deep.equal({ creationTimestamp: null });
    const resources = body.items[0].versions?.[0].resources ?? [];
    expect(resources.map((r) => r.resource)).to.deep.equal(['configmaps', 'events', 'namespaces', 'serviceaccounts']);
    expect(resources[2].scope).to.equal('Cluster');
    expect(resources[0].scope).to.equal('Namespaced');
    expect(resources[3].subresources).to.deep.equal([
      { subresource: 'token', responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] },
    ]);
  });

  it('returns the legacy shape when the aggregated type is not asked for or cannot be served', async function () {
    for (const accept of ['application/json', '*/*', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json']) {
      const res = await get('/apis', { Accept: accept });
      expect(res.headers.get('content-type'), accept).to.equal('application/json');
      expect((await res.json() as APIGroupList).kind, accept).to.equal('APIGroupList');
    }
  });

  it('leaves other methods and paths unhandled', async function () {
    expect((await fetch(`${base}/api/v1`, { method: 'POST' })).status).to.equal(404);
    expect((await get('/api/v1/configmaps')).status).to.equal(404);
  });
});

describe('pkg/endpoints/discovery: Go\'s escapes', function () {
  it('writes the documents as upstream\'s JSON encoder does (a category\'s <, >, & as \\u003c, \\u003e, \\u0026), the ETag of those bytes', async function () {
    const s = new ResourceScheme();
    s.register(def({ group: 'escapes.example', version: 'v1', kind: 'Note', plural: 'notes', singular: 'note', namespaced: true, verbs: crud, categories: ['<a>&b'] }));
    const app = new Koa();
    const discovery = createDiscoveryHandler(s);
    app.use(async (ctx) => { if (!(await discovery(ctx))) ctx.status = 404; });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const legacy = await (await fetch(`${url}/apis/escapes.example/v1`)).text();
      expect(legacy).to.include('"categories":["\\u003ca\\u003e\\u0026b"]');
      const res = await fetch(`${url}/apis`, { headers: { Accept: aggregatedAccept } });
      const aggregated = await res.text();
      expect(aggregated).to.include('"categories":["\\u003ca\\u003e\\u0026b"]');
      const etag = `"${createHash('sha512').update(aggregated.slice(0, -1)).digest('hex').toUpperCase()}"`;
      expect(res.headers.get('etag')).to.equal(etag);
    } finally {
      server.close();
    }
  });
});
