import { expect } from 'chai';
import Koa from 'koa';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import type { Strategy } from '../registry/generic/strategy.js';
import type { ResourceDef } from '../registry/rest/resource.js';
import { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { createOpenAPIHandler } from './handler.js';
import { gnosticV2Descriptor } from './proto/gnostic-v2-descriptor.js';

const strategy = {} as Strategy;
const crud: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function testScheme(): ResourceScheme {
  const s = new ResourceScheme();
  const reg = (d: Omit<ResourceDef, 'strategy' | 'singular'>) => s.register({ ...d, singular: d.plural, strategy });
  reg({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, verbs: crud });
  reg({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], subresources: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }] });
  reg({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true, verbs: crud });
  return s;
}

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

function get(server: Server, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Documents are deep JSON; the assertions, not the types, check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;
const json = (r: Reply) => JSON.parse(r.body.toString()) as Doc;

describe('createOpenAPIHandler', () => {
  let server: Server;
  let scheme: ResourceScheme;

  before(async () => {
    scheme = testScheme();
    const handler = createOpenAPIHandler(scheme);
    const app = new Koa();
    app.use(async (ctx) => {
      if (await handler(ctx)) return;
      ctx.status = 404;
      ctx.body = 'fallthrough';
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
  });

  after(() => new Promise<void>((r) => server.close(() => r())));

  it('serves the Swagger 2.0 document for the registered resources only', async () => {
    const r = await get(server, '/openapi/v2', { Accept: 'application/json' });
    expect(r.status).to.equal(200);
    expect(r.headers['content-type']).to.equal('application/json');
    expect(r.headers.etag).to.match(/^"[0-9A-F]{128}"$/);
    const doc = json(r);
    expect(doc.swagger).to.equal('2.0');
    expect(doc.info).to.deep.equal({ title: 'Kubernetes', version: 'unversioned' });
    const coll = doc.paths['/api/v1/namespaces/{namespace}/configmaps'];
    expect(coll.post).to.include({ operationId: 'createCoreV1NamespacedConfigMap', 'x-kubernetes-action': 'post' });
    expect(coll.post['x-kubernetes-group-version-kind']).to.deep.equal({ group: '', kind: 'ConfigMap', version: 'v1' });
    expect(coll.post.parameters[0]).to.deep.equal({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } });
    expect(coll.parameters.map((p: { name: string }) => p.name)).to.deep.equal(['namespace', 'pretty']);
    expect(doc.paths['/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}/roles/{name}'].patch.consumes)
      .to.include('application/strategic-merge-patch+json');
    expect(doc.definitions).to.have.property('io.k8s.api.rbac.v1.PolicyRule');
    expect(doc.definitions).to.have.property('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(doc.definitions).to.not.have.property('io.k8s.api.core.v1.Pod');
    expect(Object.keys(doc.paths).some((p) => p.includes('/pods'))).to.equal(false);
    expect(r.body.toString()).to.not.contain('"description":"ConfigMap holds');
  });

  it('answers 304 to a matching If-None-Match and 406 to an unacceptable Accept', async () => {
    const first = await get(server, '/openapi/v2', { Accept: 'application/json' });
    const again = await get(server, '/openapi/v2', { Accept: 'application/json', 'If-None-Match': first.headers.etag as string });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
    const other = await get(server, '/openapi/v2', { Accept: 'application/json', 'If-None-Match': '"0000"' });
    expect(other.status).to.equal(200);
    expect((await get(server, '/openapi/v2', { Accept: 'text/html' })).status).to.equal(406);
  });

  it('serves the gnostic protobuf form kubectl asks for', async () => {
    const r = await get(server, '/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(r.status).to.equal(200);
    expect(r.headers['content-type']).to.equal('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const Document = protobuf.Root.fromJSON(gnosticV2Descriptor).lookupType('openapi.v2.Document');
    const doc = Document.toObject(Document.decode(r.body)) as Doc;
    expect(doc.swagger).to.equal('2.0');
    const jsonDoc = json(await get(server, '/openapi/v2', { Accept: 'application/json' }));
    expect(doc.paths.path.map((p: { name: string }) => p.name)).to.deep.equal(Object.keys(jsonDoc.paths));
    expect(doc.definitions.additionalProperties.length).to.equal(Object.keys(jsonDoc.definitions).length);
    const list = doc.paths.path.find((p: { name: string }) => p.name === '/api/v1/namespaces/{namespace}/configmaps').value.get;
    expect(list.operationId).to.equal('listCoreV1NamespacedConfigMap');
    const action = list.vendorExtension.find((e: { name: string }) => e.name === 'x-kubernetes-action');
    expect(action.value.yaml).to.equal('"list"\n');
    const pod = doc.definitions.additionalProperties.find((d: { name: string }) => d.name === 'io.k8s.api.rbac.v1.Role').value;
    const rules = pod.properties.additionalProperties.find((p: { name: string }) => p.name === 'rules').value;
    expect(rules.type.value).to.deep.equal(['array']);
    expect(rules.items.schema[0].ref).to.equal('#/definitions/io.k8s.api.rbac.v1.PolicyRule');
  });

  it('gzips when the client accepts it', async () => {
    const r = await get(server, '/openapi/v2', { Accept: 'application/json', 'Accept-Encoding': 'gzip' });
    expect(r.headers['content-encoding']).to.equal('gzip');
    expect(JSON.parse(gunzipSync(r.body).toString()).swagger).to.equal('2.0');
  });

  it('lists v3 documents with their hashes, and serves them with immutable caching', async () => {
    const root = json(await get(server, '/openapi/v3'));
    expect(Object.keys(root.paths).sort()).to.deep.equal(
      ['api', 'api/v1', 'apis', 'apis/rbac.authorization.k8s.io', 'apis/rbac.authorization.k8s.io/v1', 'version']);
    const url: string = root.paths['api/v1'].serverRelativeURL;
    expect(url).to.match(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    const r = await get(server, url, { Accept: 'application/json' });
    expect(r.status).to.equal(200);
    expect(r.headers['cache-control']).to.equal('public, immutable');
    expect(Date.parse(r.headers.expires as string)).to.be.greaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    expect(r.headers.etag).to.equal(`"${url.split('hash=')[1]}"`);
    const doc = json(r);
    expect(doc.openapi).to.equal('3.0.0');
    expect(doc.components.schemas).to.have.property('io.k8s.api.core.v1.ConfigMap');
    expect(doc.components.schemas).to.not.have.property('io.k8s.api.rbac.v1.Role');
    const post = doc.paths['/api/v1/namespaces/{namespace}/configmaps'].post;
    expect(post.requestBody.content['*/*'].schema).to.deep.equal({ $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMap' });
    expect(post.parameters.map((p: { name: string }) => p.name)).to.deep.equal(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(doc.components.schemas['io.k8s.api.core.v1.ConfigMap'].properties.metadata)
      .to.deep.equal({ allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} });
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).to.equal(undefined);
  });

  it('redirects a stale hash, answers 304 on ETag, and leaves unknown documents alone', async () => {
    const root = json(await get(server, '/openapi/v3'));
    const url: string = root.paths['apis/rbac.authorization.k8s.io/v1'].serverRelativeURL;
    const stale = await get(server, '/openapi/v3/apis/rbac.authorization.k8s.io/v1?hash=ABC');
    expect(stale.status).to.equal(301);
    expect(stale.headers.location).to.equal(url);
    const plain = await get(server, '/openapi/v3/apis/rbac.authorization.k8s.io/v1');
    expect(plain.headers['cache-control']).to.equal(undefined);
    const cached = await get(server, url, { 'If-None-Match': plain.headers.etag as string });
    expect(cached.status).to.equal(304);
    const missing = await get(server, '/openapi/v3/apis/example.com/v1');
    expect(missing.body.toString()).to.equal('fallthrough');
    expect((await get(server, url, { Accept: 'application/xml' })).status).to.equal(406);
  });

  it('rebuilds when the scheme gains resources', async () => {
    const before = (await get(server, '/openapi/v2', { Accept: 'application/json' })).headers.etag;
    scheme.register({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', singular: 'deployment', namespaced: true, verbs: crud, strategy });
    const after = await get(server, '/openapi/v2', { Accept: 'application/json' });
    expect(after.headers.etag).to.not.equal(before);
    expect(json(after).paths).to.have.property('/apis/apps/v1/namespaces/{namespace}/deployments');
    expect(json(await get(server, '/openapi/v3')).paths).to.have.property('apis/apps/v1');
  });
});
