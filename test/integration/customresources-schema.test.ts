// Custom resources against their CRD's schema and conversion, over HTTP on two replicas:
// OpenAPI value validation with upstream's 422s, defaulting on create and on read,
// pruning of unknown fields (fieldValidation Strict/Warn/Ignore), and versions converted
// by a conversion webhook (ConversionReview over TLS), including its failure answered
// with upstream's 500.
import { expect } from 'chai';
import { request, startReplicas, testEtcdClient, until, watch, type Cluster, type HttpResponse } from '../harness/index.js';
import { startConversionWebhook, type ConversionWebhook } from '../harness/conversion-webhook.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

interface Status { code: number; reason: string; message: string }

const crdBase = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('custom resources: schema and conversion', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  let webhook: ConversionWebhook;
  const call = <T>(replica: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  const served = (replica: number, path: string) => until(`${path} served`, async () => (await call(replica, 'GET', path)).status === 200, 5000);

  before(async () => {
    cluster = await startReplicas(2);
    webhook = await startConversionWebhook();
  });
  after(async () => {
    await cluster?.stop();
    await webhook?.server.stop();
  });

  describe('validation, defaulting and pruning', () => {
    const group = 'schema.example.com';
    const base = `/apis/${group}/v1/namespaces/default/boxes`;
    before(async () => {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `boxes.${group}` },
        spec: {
          group, scope: 'Namespaced', names: { plural: 'boxes', kind: 'Box' },
          versions: [{
            name: 'v1', served: true, storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object', required: ['spec'],
                properties: {
                  spec: {
                    type: 'object', required: ['size'],
                    properties: {
                      size: { type: 'integer', minimum: 1, maximum: 10 },
                      color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
                      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    },
                  },
                },
              },
            },
          }],
        },
      };
      expect((await call(0, 'POST', crdBase, crd)).status).to.equal(201);
      await served(1, base);
    });

    it('answers 422 with upstream\'s messages for values the schema refuses', async () => {
      const res = await call<Status>(1, 'POST', base, {
        apiVersion: `${group}/v1`, kind: 'Box', metadata: { name: 'bad' }, spec: { size: 'big', color: 'green', tags: ['a', 'a'] },
      });
      expect([res.status, res.body.reason]).to.deep.equal([422, 'Invalid']);
      expect(res.body.message).to.equal('Box.schema.example.com "bad" is invalid: ['
        + 'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string", '
        + 'spec.color: Unsupported value: "green": supported values: "red", "blue", '
        + 'spec.tags[1]: Duplicate value: "a"]');
      const missing = await call<Status>(1, 'POST', base, { apiVersion: `${group}/v1`, kind: 'Box', metadata: { name: 'empty' }, spec: {} });
      expect([missing.status, missing.body.message]).to.deep.equal([422, 'Box.schema.example.com "empty" is invalid: spec.size: Required value']);
      const big = await call<Status>(0, 'POST', base, { apiVersion: `${group}/v1`, kind: 'Box', metadata: { name: 'big' }, spec: { size: 11 } });
      expect([big.status, big.body.message]).to.deep.equal([422, 'Box.schema.example.com "big" is invalid: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10']);
    });

    it('fills in defaults and prunes unknown fields, reporting them per fieldValidation', async () => {
      const body = { apiVersion: `${group}/v1`, kind: 'Box', metadata: { name: 'pruned' }, spec: { size: 2, bogus: 1, extra: { kept: true } }, top: 'x' };
      const strict = await call<Status>(0, 'POST', `${base}?fieldValidation=Strict`, body);
      expect([strict.status, strict.body.message]).to.deep.equal([400,
        'Box in version "v1" cannot be handled as a Box: strict decoding error: unknown field "spec.bogus", unknown field "top"']);
      const warned = await call<KubeObject>(0, 'POST', `${base}?fieldValidation=Warn`, body);
      expect(warned.status, warned.text).to.equal(201);
      expect(warned.headers['warning']).to.equal('299 - "unknown field \\"spec.bogus\\"", 299 - "unknown field \\"top\\""');
      expect([warned.body.spec, (warned.body as Record<string, unknown>).top]).to.deep.equal([{ size: 2, color: 'red', extra: { kept: true } }, undefined]);
      const read = await call<KubeObject>(1, 'GET', `${base}/pruned`);
      expect(read.body.spec).to.deep.equal({ size: 2, color: 'red', extra: { kept: true } });
    });

    it('reports duplicate fields of a JSON body per fieldValidation', async () => {
      const raw = `{"apiVersion":"${group}/v1","kind":"Box","metadata":{"name":"dup"},"spec":{"size":1,"size":2}}`;
      const strict = await call<Status>(0, 'POST', `${base}?fieldValidation=Strict`, raw, { 'Content-Type': 'application/json' });
      expect([strict.status, strict.body.message]).to.deep.equal([400,
        'Box in version "v1" cannot be handled as a Box: strict decoding error: duplicate field "spec.size"']);
      const warned = await call<KubeObject>(1, 'POST', `${base}?fieldValidation=Warn`, raw, { 'Content-Type': 'application/json' });
      expect([warned.status, warned.headers['warning'], warned.body.spec]).to.deep.equal([201, '299 - "duplicate field \\"spec.size\\""', { size: 2, color: 'red' }]);
    });

    it('defaults objects on read with defaults added to the schema after they were stored', async () => {
      const crd = await call<KubeObject>(0, 'GET', `${crdBase}/boxes.${group}`);
      const versions = (crd.body.spec as { versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }> }).versions;
      // Read first, so that the replicas' watch caches hold the object defaulted by the old schema.
      for (const replica of [0, 1]) {
        expect((await call<{ items: KubeObject[] }>(replica, 'GET', base)).body.items.map((o) => o.spec)).to.deep.include({ size: 2, color: 'red', extra: { kept: true } });
        expect((await call<KubeObject>(replica, 'GET', `${base}/pruned`)).body.spec).to.deep.equal({ size: 2, color: 'red', extra: { kept: true } });
      }
      versions[0]!.schema.openAPIV3Schema.properties.spec.properties.shape = { type: 'string', default: 'cube' };
      expect((await call(0, 'PUT', `${crdBase}/boxes.${group}`, crd.body)).status).to.equal(200);
      const read = await until('default applied on replica 1', async () => {
        const r = await call<KubeObject>(1, 'GET', `${base}/pruned`);
        return (r.body.spec as Record<string, unknown>).shape === 'cube' ? r.body : undefined;
      }, 5000);
      expect(read.spec).to.deep.equal({ size: 2, color: 'red', extra: { kept: true }, shape: 'cube' });
      // Served from the watch cache, whose objects were read (and defaulted) before the change.
      for (const replica of [0, 1]) {
        const list = await call<{ items: KubeObject[] }>(replica, 'GET', base);
        const pruned = list.body.items.find((o) => o.metadata.name === 'pruned');
        expect(pruned?.spec, `replica ${replica}`).to.deep.equal({ size: 2, color: 'red', extra: { kept: true }, shape: 'cube' });
        const again = await call<KubeObject>(replica, 'GET', `${base}/pruned`);
        expect(again.body.spec, `replica ${replica}`).to.deep.equal(pruned?.spec);
      }
    });
  });

  describe('x-kubernetes-validations rules', () => {
    const group = 'rules.example.com';
    const base = `/apis/${group}/v1/namespaces/default/ranges`;
    before(async () => {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `ranges.${group}` },
        spec: {
          group, scope: 'Namespaced', names: { plural: 'ranges', kind: 'Range' },
          versions: [{
            name: 'v1', served: true, storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
                    properties: {
                      min: { type: 'integer' },
                      max: { type: 'integer' },
                      owner: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'owner is immutable' }] },
                    },
                  },
                },
              },
            },
          }],
        },
      };
      const res = await call(0, 'POST', crdBase, crd);
      expect(res.status, res.text).to.equal(201);
      await served(1, base);
    });

    it('refuses objects that break a rule, and changes that break a transition rule', async () => {
      const bad = await call<Status>(1, 'POST', base, { apiVersion: `${group}/v1`, kind: 'Range', metadata: { name: 'r' }, spec: { min: 5, max: 1 } });
      expect([bad.status, bad.body.message]).to.deep.equal([422, 'Range.rules.example.com "r" is invalid: spec: Invalid value: "object": min must not exceed max']);
      const good = await call<KubeObject>(1, 'POST', base, { apiVersion: `${group}/v1`, kind: 'Range', metadata: { name: 'r' }, spec: { min: 1, max: 5, owner: 'ann' } });
      expect(good.status, good.text).to.equal(201);
      const changed = await call<Status>(0, 'PATCH', `${base}/r`, { spec: { owner: 'bob' } }, { 'Content-Type': 'application/merge-patch+json' });
      expect([changed.status, changed.body.message]).to.deep.equal([422, 'Range.rules.example.com "r" is invalid: spec.owner: Invalid value: "string": owner is immutable']);
      const typed = await call<Status>(0, 'PATCH', `${base}/r`, { spec: { min: 'one' } }, { 'Content-Type': 'application/merge-patch+json' });
      expect([typed.status, typed.body.message]).to.deep.equal([422, 'Range.rules.example.com "r" is invalid: ['
        + 'spec.min: Invalid value: "string": spec.min in body must be of type integer: "string", '
        + '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]']);
    });
  });

  describe('conversion webhook', () => {
    const group = 'conv.example.com';
    const base = (v: string) => `/apis/${group}/${v}/namespaces/default/endpoints2`;
    before(async () => {
      const schema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `endpoints2.${group}` },
        spec: {
          group, scope: 'Namespaced', names: { plural: 'endpoints2', kind: 'Endpoint2' },
          conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: webhook.url, caBundle: webhook.caBundle } } },
          versions: [
            { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } },
            { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema } },
          ],
        },
      };
      const res = await call(0, 'POST', crdBase, crd);
      expect(res.status, res.text).to.equal(201);
      await served(1, base('v2'));
    });

    it('stores in the storage version and serves each version through the webhook', async () => {
      const created = await call<KubeObject>(0, 'POST', base('v2'), { apiVersion: `${group}/v2`, kind: 'Endpoint2', metadata: { name: 'e1' }, spec: { host: 'db', port: 5432 } });
      expect(created.status, created.text).to.equal(201);
      expect([created.body.apiVersion, created.body.spec]).to.deep.equal([`${group}/v2`, { host: 'db', port: 5432 }]);
      const etcd = await testEtcdClient();
      try {
        const stored = JSON.parse((await etcd.get(`${cluster.etcdPrefix}/${group}/endpoints2/default/e1`).string()) ?? 'null') as KubeObject;
        expect([stored.apiVersion, stored.spec]).to.deep.equal([`${group}/v1`, { hostPort: 'db:5432' }]);
      } finally {
        etcd.close();
      }
      const v1 = await call<KubeObject>(1, 'GET', `${base('v1')}/e1`);
      expect([v1.body.apiVersion, v1.body.spec]).to.deep.equal([`${group}/v1`, { hostPort: 'db:5432' }]);
      const list = await call<{ items: KubeObject[] }>(1, 'GET', base('v2'));
      expect(list.body.items.map((o) => [o.apiVersion, o.spec])).to.deep.equal([[`${group}/v2`, { host: 'db', port: 5432 }]]);
      expect(webhook.reviews().length).to.be.greaterThan(0);
    });

    it('answers 500 with upstream\'s message when the webhook fails, and ends a watch with that Status', async () => {
      const list = await call<{ metadata: { resourceVersion: string } }>(1, 'GET', base('v2'));
      const w = await watch<Status>(`${cluster.urls[1]}${base('v2')}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`, cluster.credentialsFor());
      webhook.fault = 'badUID';
      try {
        const res = await call<Status>(1, 'GET', `${base('v2')}/e1`);
        expect(res.status).to.equal(500);
        expect(res.body.message).to.match(/^conversion webhook for conv\.example\.com\/v1, Kind=Endpoint2 failed: /);
        await call(0, 'PATCH', `${base('v1')}/e1`, { metadata: { labels: { a: 'b' } } }, { 'Content-Type': 'application/merge-patch+json' });
        const ev = await w.next(5000);
        expect([ev.type, ev.object.code, ev.object.message.startsWith('conversion webhook for conv.example.com/v1, Kind=Endpoint2 failed: ')])
          .to.deep.equal(['ERROR', 500, true]);
      } finally {
        webhook.fault = undefined;
        w.close();
      }
    });
  });
});
