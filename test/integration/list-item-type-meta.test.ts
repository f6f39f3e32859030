// The items of a built-in kind's list carry no apiVersion or kind, as upstream v1.28 writes
// them (../shared/fixtures/protobuf/*-list.json, upstream's JSON answers): whichever way the
// list is read (watch cache, etcd, paged, selected, pretty, YAML), small lists (encoded in
// one go) and large ones (encoded a batch at a time from the cached bytes of each object).
// A PartialObjectMetadataList's items and a watch event's object keep theirs.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { decodeObject } from '../../pkg/runtime/serializer/protobuf/envelope.js';

type Json = Record<string, unknown>;
interface List { apiVersion: string; kind: string; metadata: { resourceVersion: string; continue?: string }; items: Json[] }

const fixtures = join(process.cwd(), '../shared/fixtures/protobuf');
const fixture = (name: string): List => JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8')) as List;

/** A list's shape: its own keys and each item's, sorted (the fixtures were captured with sorted keys). */
function shape(l: List): { list: string[]; items: string[][] } {
  return { list: Object.keys(l).sort(), items: l.items.map((i) => Object.keys(i).sort()) };
}

// Only ConfigMaps the tests make, so the root-CA publisher's is kept out.
const withoutRootCA = ['--controllers=*,-root-ca-cert-publisher'];

describe('list items without apiVersion/kind (built-in kinds, as upstream v1.28)', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `ltm-${Date.now().toString(36)}`;
  const small = `/api/v1/namespaces/${ns}/configmaps`;
  const bigNs = `${ns}-big`;
  const big = `/api/v1/namespaces/${bigNs}/configmaps`;
  // Above list-encoder's cooperativeMinItems (100): encoded a batch at a time.
  const bigCount = 130;
  const get = <T = List>(path: string, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), headers });
  const send = <T = Json>(method: string, path: string, body?: unknown): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });
  const list = async (path: string, headers: Record<string, string> = {}): Promise<List> => {
    const res = await get(path, headers);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };

  before(async () => {
    cluster = await startReplicas(1, { extraArgs: withoutRootCA });
    for (const n of [ns, bigNs]) expect((await send('POST', '/api/v1/namespaces', { metadata: { name: n } })).status).to.equal(201);
    for (let i = 0; i < 3; i++) {
      const res = await send('POST', small, { metadata: { name: `cm-${i}`, labels: { odd: String(i % 2 === 1) } }, data: { k: 'v' } });
      expect(res.status, res.text).to.equal(201);
    }
    for (let i = 0; i < bigCount; i++) {
      const res = await send('POST', big, { metadata: { name: `cm-${String(i).padStart(3, '0')}` }, data: { k: `<v${i}>` } });
      expect(res.status, res.text).to.equal(201);
    }
  });
  after(async () => { await cluster?.stop(); });

  const expectUpstreamShape = (l: List, count: number): void => {
    expect(l.kind).to.equal('ConfigMapList');
    expect(l.apiVersion).to.equal('v1');
    expect(l.items).to.have.length(count);
    const want = shape(fixture('configmap-list'));
    expect(shape(l)).to.deep.equal({ list: want.list, items: l.items.map(() => want.items[0]!) });
    // Go's field order: metadata before data.
    for (const item of l.items) expect(Object.keys(item)).to.deep.equal(['metadata', 'data']);
  };

  for (const [what, path, count] of [['small', () => small, 3], ['large', () => big, bigCount]] as const) {
    describe(`a ${what} list (${count} items)`, () => {
      it('from the watch cache (resourceVersion=0) and consistent (resourceVersion unset)', async () => {
        expectUpstreamShape(await list(`${path()}?resourceVersion=0`), count);
        expectUpstreamShape(await list(path()), count);
        // Read again: the second read writes bytes cached by the first.
        expectUpstreamShape(await list(`${path()}?resourceVersion=0`), count);
      });

      it('from etcd (resourceVersionMatch=Exact)', async () => {
        const rv = (await list(`${path()}?resourceVersion=0`)).metadata.resourceVersion;
        expectUpstreamShape(await list(`${path()}?resourceVersion=${rv}&resourceVersionMatch=Exact`), count);
      });

      it('pretty, and as YAML', async () => {
        const pretty = await get(`${path()}?pretty=true`);
        expect(pretty.text).to.not.match(/^ {4}"(apiVersion|kind)"/m);
        expectUpstreamShape(pretty.body, count);
        const yaml = await get<string>(path(), { Accept: 'application/yaml' });
        expect(yaml.status).to.equal(200);
        expect(yaml.text).to.match(/^apiVersion: v1\n/);
        expect(yaml.text).to.not.match(/^ {2}(apiVersion|kind):/m);
        // No anchors and aliases for the nested objects the cached objects share.
        expect(yaml.text).to.not.match(/ [&*]a\d+$/m);
        expectUpstreamShape(parseYaml(yaml.text) as List, count);
      });

      it('as protobuf: the same items as the JSON list', async () => {
        const json = await list(`${path()}?resourceVersion=0`);
        const res = await get<string>(`${path()}?resourceVersion=0`, { Accept: 'application/vnd.kubernetes.protobuf' });
        expect(res.status).to.equal(200);
        const pb = decodeObject(res.raw) as unknown as List;
        expect(pb.kind).to.equal('ConfigMapList');
        expect(pb.items.map((i) => (i.metadata as Json).name)).to.deep.equal(json.items.map((i) => (i.metadata as Json).name));
        expect(pb.items.map((i) => i.data)).to.deep.equal(json.items.map((i) => i.data));
      });
    });
  }

  it('paged with limit and continue, from the cache and from etcd (a first page at an exact revision), pages large and small', async () => {
    const rv = (await list(`${big}?resourceVersion=0`)).metadata.resourceVersion;
    for (const at of ['', `&resourceVersion=${rv}&resourceVersionMatch=Exact`]) {
      let cont = '';
      let seen = 0;
      for (;;) {
        const l = await list(`${big}?limit=110${cont ? `&continue=${encodeURIComponent(cont)}` : at}`);
        expectUpstreamShape(l, l.items.length);
        seen += l.items.length;
        if (!l.metadata.continue) break;
        cont = l.metadata.continue;
      }
      expect(seen).to.equal(bigCount);
    }
  });

  it('with label and field selectors', async () => {
    expectUpstreamShape(await list(`${small}?labelSelector=odd%3Dtrue`), 1);
    expectUpstreamShape(await list(`${small}?fieldSelector=metadata.name%3Dcm-2`), 1);
    expectUpstreamShape(await list(`${big}?fieldSelector=metadata.name%21%3Dcm-000`), bigCount - 1);
  });

  it('a Deployment list has the fixture deployment-list shape', async () => {
    const request = JSON.parse(readFileSync(join(process.cwd(), '../shared/fixtures/surface/objects/apps_v1.Deployment.d.request.json'), 'utf8')) as Json;
    const res = await send('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, request);
    expect(res.status, res.text).to.equal(201);
    const l = await list(`/apis/apps/v1/namespaces/${ns}/deployments`);
    expect(l.kind).to.equal('DeploymentList');
    const want = shape(fixture('deployment-list'));
    expect(shape(l)).to.deep.equal(want);
  });

  it('the watch events still carry apiVersion and kind', async () => {
    const rv = (await list(small)).metadata.resourceVersion;
    const res = await get<string>(`${small}?watch=true&resourceVersion=0&timeoutSeconds=1`);
    const first = JSON.parse(res.text.split('\n')[0]!) as { type: string; object: Json };
    expect(first.type).to.equal('ADDED');
    expect([first.object.apiVersion, first.object.kind]).to.deep.equal(['v1', 'ConfigMap']);
    expect(rv).to.match(/^\d+$/);
  });

  it('PartialObjectMetadataList items carry kind PartialObjectMetadata and meta.k8s.io/v1, small and large', async () => {
    for (const [path, count] of [[small, 3], [big, bigCount]] as const) {
      const l = await list(path, { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' });
      expect(l.kind).to.equal('PartialObjectMetadataList');
      expect(l.apiVersion).to.equal('meta.k8s.io/v1');
      expect(l.items).to.have.length(count);
      for (const item of l.items) {
        expect(Object.keys(item)).to.deep.equal(['kind', 'apiVersion', 'metadata']);
        expect([item.kind, item.apiVersion]).to.deep.equal(['PartialObjectMetadata', 'meta.k8s.io/v1']);
      }
    }
  });

  it('componentstatuses: items without apiVersion/kind', async () => {
    const l = await list('/api/v1/componentstatuses');
    expect(l.kind).to.equal('ComponentStatusList');
    expect(l.items.length).to.be.greaterThan(0);
    for (const item of l.items) expect(Object.keys(item)).to.deep.equal(['metadata', 'conditions']);
  });

  // A suite of its own: mocha runs a suite's tests before its nested suites, and this one empties the namespaces.
  describe('last', () => it('deletecollection answers the deleted list without apiVersion/kind in its items', async () => {
    const res = await send<List>('DELETE', small);
    expect(res.status, res.text).to.equal(200);
    expectUpstreamShape(res.body, 3);
    const rest = await send<List>('DELETE', big);
    expect(rest.status, rest.text).to.equal(200);
    expectUpstreamShape(rest.body, bigCount);
  }));
});
