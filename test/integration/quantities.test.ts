// Quantities of built-in kinds are stored and served in upstream's canonical form, as its
// decode into Go types leaves them ("1000m" -> "1", "1024Mi" -> "1Gi", "0.5" -> "500m"),
// whatever the body's encoding or the write's verb; a write of another spelling of a
// stored value is a no-op (same resourceVersion, no watch event); custom resources keep
// what was sent.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { decodeObject, encodeObject } from '../../pkg/runtime/serializer/protobuf/envelope.js';
import { request, startReplicas, testEtcdClient, until, watch, type Cluster } from '../harness/index.js';

type Obj = Record<string, any>;
const pb = 'application/vnd.kubernetes.protobuf';

/** Bodies with quantities spelled the non-canonical ways people write them. */
function bodies(): Array<{ path: string; key: string; body: Obj; served: (o: Obj) => unknown; want: unknown }> {
  return [
    {
      path: 'pods', key: 'pods',
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {
        containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '1000m', memory: '1024Mi' }, requests: { cpu: 0.5, memory: '0.5Gi' } } }],
        volumes: [{ name: 'v', emptyDir: { sizeLimit: '2000' } }] } },
      served: (o) => [o.spec.containers[0].resources, o.spec.volumes[0].emptyDir.sizeLimit],
      want: [{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '512Mi' } }, '2k'],
    },
    {
      path: 'deployments', key: 'deployments',
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: {
        metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '1000m', memory: '1024Mi' } } }] } } } },
      served: (o) => o.spec.template.spec.containers[0].resources,
      want: { limits: { cpu: '1', memory: '1Gi' } },
    },
    {
      path: 'resourcequotas', key: 'resourcequotas',
      body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { cpu: '2000m', memory: '2048Mi', pods: '10', 'requests.storage': '1.5Gi' } } },
      served: (o) => o.spec.hard,
      want: { cpu: '2', memory: '2Gi', pods: '10', 'requests.storage': '1536Mi' },
    },
    {
      path: 'limitranges', key: 'limitranges',
      body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 'Container',
        default: { cpu: '1000m', memory: '1e3' }, defaultRequest: { cpu: '100m' }, max: { memory: '1536Mi' } }] } },
      served: (o) => o.spec.limits[0],
      want: { type: 'Container', default: { cpu: '1', memory: '1e3' }, defaultRequest: { cpu: '100m', memory: '1e3' }, max: { memory: '1536Mi' } },
    },
    {
      path: 'persistentvolumeclaims', key: 'persistentvolumeclaims',
      body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } },
      served: (o) => o.spec.resources,
      want: { requests: { storage: '1Gi' } },
    },
  ];
}

const apiPath = (ns: string, resource: string) => (resource === 'deployments' ? `/apis/apps/v1/namespaces/${ns}/${resource}` : `/api/v1/namespaces/${ns}/${resource}`);

describe('quantities in canonical form', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let etcd: Etcd3;
  const call = (path: string, opts: Parameters<typeof request>[1] = {}) => request(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor('admin'), ...opts });
  const stored = async (key: string): Promise<Obj> => decodeObject((await etcd.get(`${cluster.etcdPrefix}/${key}`).buffer())!) as Obj;
  const namespace = async (name: string) => expect((await call('/api/v1/namespaces', { method: 'POST', body: { metadata: { name } } })).status).to.equal(201);

  before(async () => {
    // No controller rewrites what the test wrote (the quota's status).
    cluster = await startReplicas(1, { extraArgs: ['--controllers=*,-resourcequota'] });
    etcd = await testEtcdClient();
    await namespace('q-json');
    await namespace('q-protobuf');
    await namespace('q-writes');
  });
  after(async () => {
    etcd?.close();
    await cluster?.stop();
  });

  for (const encoding of ['json', 'protobuf'] as const) {
    it(`stores and serves a ${encoding} body's quantities canonical: Pod, Deployment, ResourceQuota, LimitRange, PVC`, async () => {
      const ns = `q-${encoding}`;
      for (const c of bodies()) {
        const created = encoding === 'json'
          ? await call(apiPath(ns, c.path), { method: 'POST', body: c.body })
          : await call(apiPath(ns, c.path), { method: 'POST', headers: { 'Content-Type': pb, Accept: pb }, body: encodeObject(c.body) });
        expect(created.status, `${c.path}: ${created.text}`).to.equal(201);
        const answered = encoding === 'json' ? created.body as Obj : decodeObject(created.raw) as Obj;
        expect(c.served(answered), `${c.path} answered`).to.deep.equal(c.want);
        const got = await call(`${apiPath(ns, c.path)}/${c.body.metadata.name}`);
        expect(c.served(got.body as Obj), `${c.path} served`).to.deep.equal(c.want);
        expect(c.served(await stored(`${c.key}/${ns}/${c.body.metadata.name}`)), `${c.path} in etcd`).to.deep.equal(c.want);
      }
    });
  }

  it('a PUT of another spelling of the stored quantities is a no-op: same resourceVersion, no watch event', async () => {
    const ns = 'q-writes';
    for (const c of bodies().filter((b) => b.path === 'limitranges' || b.path === 'deployments')) {
      const path = apiPath(ns, c.path);
      const created = await call(path, { method: 'POST', body: c.body });
      expect(created.status, created.text).to.equal(201);
      const rv = (created.body as Obj).metadata.resourceVersion as string;
      const w = await watch(`${cluster.urls[0]}${path}?watch=1&resourceVersion=${rv}`, cluster.credentialsFor('admin'));
      try {
        const again = { ...c.body, metadata: { ...c.body.metadata, resourceVersion: rv } };
        const put = await call(`${path}/${c.body.metadata.name}`, { method: 'PUT', body: again });
        expect(put.status, put.text).to.equal(200);
        expect((put.body as Obj).metadata.resourceVersion, c.path).to.equal(rv);
        expect(c.served(put.body as Obj)).to.deep.equal(c.want);
        await new Promise((r) => setTimeout(r, 1000));
        expect(w.pending(), c.path).to.deep.equal([]);
      } finally {
        w.close();
      }
    }
  });

  it('every patch type and server-side apply write the canonical form', async () => {
    const ns = 'q-writes';
    const path = `/api/v1/namespaces/${ns}/resourcequotas`;
    expect((await call(path, { method: 'POST', body: { metadata: { name: 'patched' }, spec: { hard: { cpu: '1' } } } })).status).to.equal(201);
    const patches: Array<[string, string, string]> = [
      ['application/merge-patch+json', JSON.stringify({ spec: { hard: { cpu: '3000m' } } }), '3'],
      ['application/strategic-merge-patch+json', JSON.stringify({ spec: { hard: { cpu: '0.25' } } }), '250m'],
      ['application/json-patch+json', JSON.stringify([{ op: 'replace', path: '/spec/hard/cpu', value: '4096Ki' }]), '4Mi'],
      ['application/apply-patch+yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: patched\nspec:\n  hard:\n    cpu: 5000m\n', '5'],
    ];
    for (const [type, body, want] of patches) {
      const query = type === 'application/apply-patch+yaml' ? '?fieldManager=q&force=true' : '';
      const r = await call(`${path}/patched${query}`, { method: 'PATCH', headers: { 'Content-Type': type }, body: Buffer.from(body) });
      expect(r.status, `${type}: ${r.text}`).to.equal(200);
      expect((r.body as Obj).spec.hard.cpu, type).to.equal(want);
      expect((await stored(`resourcequotas/${ns}/patched`)).spec.hard.cpu, type).to.equal(want);
    }
    // A YAML body and a status write decode the same way.
    const yaml = await call(path, { method: 'POST', headers: { 'Content-Type': 'application/yaml' },
      body: Buffer.from('apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: yaml\nspec:\n  hard:\n    memory: 1024Mi\n    cpu: 0.5\n') });
    expect(yaml.status, yaml.text).to.equal(201);
    expect((yaml.body as Obj).spec.hard).to.deep.equal({ cpu: '500m', memory: '1Gi' });
    const status = await call(`${path}/yaml/status`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' },
      body: Buffer.from(JSON.stringify({ status: { hard: { memory: '1024Mi' }, used: { memory: '0.5Gi' } } })) });
    expect(status.status, status.text).to.equal(200);
    expect((status.body as Obj).status).to.deep.equal({ hard: { memory: '1Gi' }, used: { memory: '512Mi' } });
  });

  it('keeps a custom resource\'s values as sent', async () => {
    const group = 'quantities.example.com';
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `meters.${group}` }, spec: {
      group, scope: 'Namespaced', names: { plural: 'meters', singular: 'meter', kind: 'Meter' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
        cpu: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        resources: { type: 'object', additionalProperties: { type: 'string' } } } } } } } }] } };
    expect((await call('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: crd })).status).to.equal(201);
    const path = `/apis/${group}/v1/namespaces/q-writes/meters`;
    await until('served', async () => ((await call(path)).status === 200 ? true : undefined), 10_000);
    const r = await call(path, { method: 'POST', body: { apiVersion: `${group}/v1`, kind: 'Meter', metadata: { name: 'm' }, spec: { cpu: '1000m', resources: { memory: '1024Mi' } } } });
    expect(r.status, r.text).to.equal(201);
    expect((r.body as Obj).spec).to.deep.equal({ cpu: '1000m', resources: { memory: '1024Mi' } });
  });
});
