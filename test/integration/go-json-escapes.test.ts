// Every JSON answer is written as upstream's Go encoder writes it: inside strings `<`, `>`
// and `&` as \u003c, \u003e, \u0026, U+2028 / U+2029 as \u2028 / \u2029, backspace and
// form feed as \u0008 / \u000c (Go 1.20 / 1.21, v1.28's). Checked on the bytes of a
// create, get, list (small, large and pretty), watch frame, Table, 422 Status, and of a
// value stored as JSON; YAML answers keep the characters as they are.
import { expect } from 'chai';
import { request, startReplicas, type Cluster } from '../harness/index.js';

const value = 'a<b>&c\u2028d\u2029e\bf\fg';
const goWritten = 'a\\u003cb\\u003e\\u0026c\\u2028d\\u2029e\\u0008f\\u000cg';
const raw = /[<>&\u2028\u2029]|\\[bf]/;

describe('JSON answers escape as Go\'s encoder does', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = 'go-escapes';
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, annotations: { note: value } }, data: { k: value } });

  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--storage-media-type=application/json'] });
    expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('create, get and pretty get', async () => {
    const created = await call('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('one'));
    expect(created.status).to.equal(201);
    for (const res of [created, await call('GET', `/api/v1/namespaces/${ns}/configmaps/one`)]) {
      expect(res.text).to.include(`"annotations":{"note":"${goWritten}"}`);
      expect(res.text).to.include(`"data":{"k":"${goWritten}"}`);
      expect(res.text).not.to.match(raw);
      expect(res.text.endsWith('}\n')).to.equal(true);
    }
    const pretty = await call('GET', `/api/v1/namespaces/${ns}/configmaps/one?pretty=true`);
    expect(pretty.text).to.include(`"note": "${goWritten}"`);
    expect(pretty.text).not.to.match(raw);
  });

  it('lists, small and large (encoded a batch at a time, cached items), compact and pretty', async () => {
    for (let i = 0; i < 120; i++) expect((await call('POST', `/api/v1/namespaces/${ns}/configmaps`, cm(`many-${i}`))).status).to.equal(201);
    const small = await call('GET', `/api/v1/namespaces/${ns}/configmaps?limit=2`);
    const large = await call('GET', `/api/v1/namespaces/${ns}/configmaps`);
    const fromCache = await call('GET', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0`);
    const pretty = await call('GET', `/api/v1/namespaces/${ns}/configmaps?pretty=true`);
    for (const [res, n] of [[small, 2], [large, 122], [fromCache, 122], [pretty, 122]] as const) {
      expect(res.status).to.equal(200);
      const items = (res.body as { items: Array<{ data?: { k?: string } }> }).items;
      expect(items).to.have.length(n);
      // Besides the namespace's kube-root-ca.crt, each has the value twice.
      const noted = items.filter((i) => i.data?.k === value).length;
      expect(noted).to.be.at.least(n - 1);
      expect(res.text.split(goWritten).length - 1).to.equal(2 * noted);
      expect(res.text).not.to.match(raw);
    }
  });

  it('watch frames', async () => {
    const rv = (await call('GET', `/api/v1/namespaces/${ns}/configmaps?limit=1`)).body as { metadata: { resourceVersion: string } };
    expect((await call('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('watched'))).status).to.equal(201);
    const frames = await call('GET', `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv.metadata.resourceVersion}&timeoutSeconds=1`);
    expect(frames.text).to.match(/^\{"type":"ADDED","object":\{/);
    expect(frames.text).to.include(`"data":{"k":"${goWritten}"}`);
    expect(frames.text).not.to.match(raw);
  });

  it('Tables: a Pod\'s <none> cells, and the object included', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', annotations: { note: value } },
      spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'busybox' }] } };
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, pod)).status).to.equal(201);
    const table = await call('GET', `/api/v1/namespaces/${ns}/pods?includeObject=Object`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.status).to.equal(200);
    expect(table.text).to.include('"\\u003cnone\\u003e"');
    expect(table.text).to.include(`"note":"${goWritten}"`);
    expect(table.text).not.to.match(raw);
  });

  it('a 422 Status quoting the value', async () => {
    const bad = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad', labels: { l: 'a<b>&c' } } };
    const res = await call('POST', `/api/v1/namespaces/${ns}/configmaps`, bad);
    expect(res.status).to.equal(422);
    expect(res.text).to.include('metadata.labels: Invalid value: \\"a\\u003cb\\u003e\\u0026c\\"');
    expect(res.text).not.to.match(raw);
  });

  it('a value stored as JSON: Go\'s escapes and the encoder\'s newline, as upstream\'s etcd values', async () => {
    const stored = await cluster.etcdClient().get(`${cluster.etcdPrefix}/configmaps/${ns}/one`).string();
    expect(stored).to.match(/^\{"/);
    expect(stored).to.include(`"data":{"k":"${goWritten}"}}\n`);
    expect(stored).not.to.match(raw);
  });

  it('YAML answers keep the characters (upstream converts its JSON to YAML)', async () => {
    const res = await call('GET', `/api/v1/namespaces/${ns}/configmaps/one`, undefined, { Accept: 'application/yaml' });
    expect(res.status).to.equal(200);
    expect(res.text).to.include('a<b>&c');
    expect(res.text).not.to.include('\\u003c');
    expect(res.text).not.to.include('\\u0026');
  });
});
