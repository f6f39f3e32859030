import { expect } from 'chai';
import Koa from 'koa';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Strategy } from '../registry/generic/strategy.js';
import { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { OpenAPIExtensions } from './extensions.js';
import { createOpenAPIHandler } from './handler.js';
import type { JSONObject } from './merge/swagger-merge.js';

function get(server: Server, path: string): Promise<{ status: number; body: string; etag?: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { Accept: 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, etag: res.headers.etag }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A fake aggregator: one extension document whose content the test can change. */
class FakeExtensions implements OpenAPIExtensions {
  rev = 1;
  spec: JSONObject = {
    swagger: '2.0', info: { title: 'ext', version: 'x' },
    paths: { '/apis/ext.example.com/v1/widgets': { get: { responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/com.example.Widget' } } } } } },
    definitions: {
      'com.example.Widget': { type: 'object', properties: { metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } } },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', description: 'not ours' },
    },
  };
  served: string[] = [];
  revision() { return this.rev; }
  v2Specs() { return [this.spec]; }
  v3Paths() { return new Map([['apis/ext.example.com/v1', '/openapi/v3/apis/ext.example.com/v1?hash=ABC'], ['api/v1', '/openapi/v3/api/v1?hash=THEIRS']]); }
  async serveV3(ctx: Koa.Context, key: string) {
    if (key !== 'apis/ext.example.com/v1') return false;
    this.served.push(`${key}?${ctx.querystring}`);
    ctx.body = { proxied: key };
    return true;
  }
}

describe('createOpenAPIHandler with extension servers', () => {
  let server: Server;
  const ext = new FakeExtensions();

  before(async () => {
    const scheme = new ResourceScheme();
    scheme.register({
      group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true,
      verbs: ['get', 'list'], strategy: {} as Strategy,
    });
    const handler = createOpenAPIHandler(scheme, { extensions: ext });
    const app = new Koa();
    app.use(async (ctx) => {
      if (await handler(ctx)) return;
      ctx.status = 404;
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('merges their Swagger paths and definitions into ours, renaming their conflicting ObjectMeta', async () => {
    const r = await get(server, '/openapi/v2');
    expect(r.status).to.equal(200);
    const doc = JSON.parse(r.body);
    expect(doc.info).to.deep.equal({ title: 'Kubernetes', version: 'unversioned' });
    expect(doc.paths).to.have.property('/api/v1/namespaces/{namespace}/configmaps');
    expect(doc.paths).to.have.property('/apis/ext.example.com/v1/widgets');
    expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].description).to.not.equal('not ours');
    expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2']).to.deep.equal({ type: 'object', description: 'not ours' });
    expect(doc.definitions['com.example.Widget'].properties.metadata).to.deep.equal({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2' });
  });

  it('rebuilds when their revision changes, not before', async () => {
    const first = await get(server, '/openapi/v2');
    ext.spec = { ...ext.spec, paths: {} };
    expect((await get(server, '/openapi/v2')).etag).to.equal(first.etag);
    ext.rev++;
    const next = await get(server, '/openapi/v2');
    expect(next.etag).to.not.equal(first.etag);
    expect(JSON.parse(next.body).paths).to.not.have.property('/apis/ext.example.com/v1/widgets');
  });

  it('lists their v3 documents in the root (ours win a shared key) and hands their documents to them', async () => {
    const root = JSON.parse((await get(server, '/openapi/v3')).body);
    expect(root.paths['apis/ext.example.com/v1']).to.deep.equal({ serverRelativeURL: '/openapi/v3/apis/ext.example.com/v1?hash=ABC' });
    expect(root.paths['api/v1'].serverRelativeURL).to.match(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await get(server, '/openapi/v3/apis/ext.example.com/v1?hash=ABC');
    expect(doc.status).to.equal(200);
    expect(JSON.parse(doc.body)).to.deep.equal({ proxied: 'apis/ext.example.com/v1' });
    expect(ext.served).to.deep.equal(['apis/ext.example.com/v1?hash=ABC']);
    expect((await get(server, '/openapi/v3/apis/other.example.com/v1')).status).to.equal(404);
  });
});
