// Server-side apply of custom resources honours the schema's list and map types: two
// managers applying different items of an `x-kubernetes-list-type: map` list each own
// their item (keyed as upstream records it), while an untyped list stays atomic and
// changes hands as a whole.
import { expect } from 'chai';
import { request, startReplicas, until, type Cluster, type HttpResponse } from '../harness/index.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

const group = 'ssa.example.com';
const base = `/apis/${group}/v1/namespaces/default/pipelines`;

describe('custom resources: server-side apply with list types', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const call = <T>(replica: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const apply = (replica: number, manager: string, spec: unknown) => call<KubeObject>(replica, 'PATCH', `${base}/p?fieldManager=${manager}`,
    JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Pipeline', metadata: { name: 'p' }, spec }), { 'Content-Type': 'application/apply-patch+yaml' });

  before(async () => {
    cluster = await startReplicas(2);
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `pipelines.${group}` },
      spec: {
        group, scope: 'Namespaced', names: { plural: 'pipelines', kind: 'Pipeline' },
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    stages: {
                      type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, image: { type: 'string' } } },
                    },
                    notes: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        }],
      },
    };
    expect((await call(0, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).to.equal(201);
    await until('served', async () => (await call(1, 'GET', base)).status === 200, 5000);
  });
  after(async () => { await cluster?.stop(); });

  it('merges map-list items of two managers and records each item by its key', async () => {
    expect((await apply(0, 'alice', { stages: [{ name: 'build', image: 'b:1' }], notes: ['a'] })).status).to.equal(201);
    const res = await apply(1, 'bob', { stages: [{ name: 'test', image: 't:1' }] });
    expect(res.status, res.text).to.equal(200);
    expect((res.body.spec as Record<string, unknown>).stages).to.deep.equal([{ name: 'build', image: 'b:1' }, { name: 'test', image: 't:1' }]);
    const owned = Object.fromEntries((res.body.metadata.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
    expect(owned.alice).to.deep.equal({ 'f:spec': { 'f:notes': {}, 'f:stages': { 'k:{"name":"build"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
    expect(owned.bob).to.deep.equal({ 'f:spec': { 'f:stages': { 'k:{"name":"test"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });

  it('treats an untyped list as atomic: a second manager conflicts on the whole list', async () => {
    const res = await apply(0, 'bob', { stages: [{ name: 'test', image: 't:1' }], notes: ['b'] });
    expect(res.status, res.text).to.equal(409);
    expect((res.body as unknown as { message: string }).message).to.equal('Apply failed with 1 conflict: conflict with "alice": .spec.notes');
  });
});
