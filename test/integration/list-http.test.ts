// Lists through real replicas: chunking across replicas, every refusal of SPEC 4.7 with
// upstream's code and message, 504 for a version that never comes, 410 after compaction,
// and the APIListChunking gate.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { compactTick, type CompactorState } from '../../pkg/storage/etcd/compactor.js';

// These tests count every ConfigMap in their namespace, so the root-CA publisher (which
// adds kube-root-ca.crt to each namespace) is off, as upstream runs such tests without
// a controller manager.
const withoutRootCA = ['--controllers=*,-root-ca-cert-publisher'];

interface List { metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number }; items: Array<{ metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }> }
interface Status { kind: string; code: number; reason: string; message: string; metadata?: { continue?: string }; details?: { causes?: Array<{ field?: string; reason?: string; message?: string }>; retryAfterSeconds?: number } }

function client(cluster: Cluster) {
  const creds = cluster.credentialsFor();
  return {
    get: <T>(replica: number, path: string) => request<T>(`${cluster.urls[replica]}${path}`, creds),
    post: <T>(replica: number, path: string, body: unknown) => request<T>(`${cluster.urls[replica]}${path}`, { ...creds, method: 'POST', body }),
    put: <T>(replica: number, path: string, body: unknown) => request<T>(`${cluster.urls[replica]}${path}`, { ...creds, method: 'PUT', body }),
  };
}

async function seed(c: ReturnType<typeof client>, ns: string, n: number): Promise<void> {
  expect((await c.post(0, '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  for (let i = 0; i < n; i++) {
    const name = `cm-${String(i).padStart(2, '0')}`;
    const res = await c.post(i % 2, `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name, labels: { tenth: i % 10 === 0 ? 'yes' : 'no' } }, data: { i: String(i) },
    });
    expect(res.status, res.text).to.equal(201);
  }
}

function expectStatus(res: HttpResponse<unknown>, code: number, reason: string, message: string | RegExp): Status {
  expect(res.status, res.text).to.equal(code);
  const s = res.body as Status;
  expect(s.kind).to.equal('Status');
  expect(s.code).to.equal(code);
  expect(s.reason).to.equal(reason);
  if (typeof message === 'string') expect(s.message).to.equal(message);
  else expect(s.message).to.match(message);
  return s;
}

describe('list over HTTP (two replicas)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let c: ReturnType<typeof client>;
  const ns = `list-${Date.now().toString(36)}`;
  const base = `/api/v1/namespaces/${ns}/configmaps`;

  before(async () => {
    cluster = await startReplicas(2, { extraArgs: withoutRootCA });
    c = client(cluster);
    await seed(c, ns, 25);
  });
  after(async () => { await cluster?.stop(); });

  it('chunks with limit and continue, alternating replicas: one resourceVersion, remainingItemCount, all 25 once', async () => {
    const seen: string[] = [];
    let cont = '';
    let rv = '';
    const remaining: Array<number | undefined> = [];
    for (let i = 0; ; i++) {
      const res = await c.get<List>(i % 2, `${base}?limit=10${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
      expect(res.status, res.text).to.equal(200);
      const l = res.body;
      if (rv) expect(l.metadata.resourceVersion).to.equal(rv);
      rv = l.metadata.resourceVersion;
      seen.push(...l.items.map((it) => it.metadata.name));
      remaining.push(l.metadata.remainingItemCount);
      if (!l.metadata.continue) break;
      cont = l.metadata.continue;
    }
    expect(seen).to.deep.equal(Array.from({ length: 25 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
    expect(remaining).to.deep.equal([15, 5, undefined]);
  });

  it('continue pages read ahead while the client reads the page before: the bytes of the same pages read when asked (JSON, protobuf)', async () => {
    const creds = cluster.credentialsFor();
    // A token is base64url of {"v":"meta.k8s.io/v1",...}: found as it is in any of the encodings.
    const tokenIn = (raw: Buffer): string | undefined => /eyJ2Ijoi[A-Za-z0-9_-]+/.exec(raw.toString('latin1'))?.[0];
    // (Tables are not read ahead: their ages follow the clock.)
    for (const accept of ['application/json', 'application/vnd.kubernetes.protobuf']) {
      const get = (replica: number, cont: string) => request(`${cluster.urls[replica]}${base}?limit=10${cont ? `&continue=${cont}` : ''}`,
        { ...creds, headers: { Accept: accept } });
      // One client paging on replica 0: each continue page was read ahead as it read the one before.
      const pages: Array<{ cont: string; raw: Buffer }> = [];
      for (let cont: string | undefined = ''; cont !== undefined;) {
        const res = await get(0, cont);
        expect(res.status, `${accept}: ${res.text}`).to.equal(200);
        if (cont) pages.push({ cont, raw: res.raw });
        cont = tokenIn(res.raw);
      }
      expect(pages, accept).to.have.length(2);
      // The same pages asked for last first, so that none was read ahead: on the other
      // replica, and again on this one.
      for (const replica of [1, 0]) {
        for (const { cont, raw } of [...pages].reverse()) {
          const again = await get(replica, cont);
          expect(again.status, again.text).to.equal(200);
          expect(again.raw.equals(raw), `${accept}, replica ${replica}: ${again.text} vs ${raw.toString()}`).to.equal(true);
        }
      }
    }
  });

  it('large pages (each joined into a buffer reused once its response is sent) come out whole to clients paging at once', async () => {
    const bigNs = `${ns}-big`;
    expect((await c.post(0, '/api/v1/namespaces', { metadata: { name: bigNs } })).status).to.equal(201);
    const names = Array.from({ length: 360 }, (_, i) => `cm-${String(i).padStart(3, '0')}`);
    const payloadOf = (name: string): string => `${name}|`.repeat(100);
    for (let i = 0; i < names.length; i += 30) {
      await Promise.all(names.slice(i, i + 30).map(async (name) => {
        const res = await c.post(0, `/api/v1/namespaces/${bigNs}/configmaps`, { metadata: { name }, data: { payload: payloadOf(name) } });
        expect(res.status, res.text).to.equal(201);
      }));
    }
    // Pages of 100-150 objects (fewer are encoded whole, never joined) of about 1 KB: over the
    // 64 KB from which a page's buffer is reused.
    const pageThrough = async (limit: number): Promise<void> => {
      const seen: string[] = [];
      let cont = '';
      do {
        const res = await c.get<List>(0, `/api/v1/namespaces/${bigNs}/configmaps?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
        expect(res.status, res.text.slice(0, 200)).to.equal(200);
        for (const it of res.body.items) expect(it.data?.payload, it.metadata.name).to.equal(payloadOf(it.metadata.name));
        seen.push(...res.body.items.map((it) => it.metadata.name));
        cont = res.body.metadata.continue ?? '';
      } while (cont);
      expect(seen).to.deep.equal(names);
    };
    for (let round = 0; round < 3; round++) await Promise.all([100, 110, 125, 150].map(pageThrough));
  });

  it('with a label selector: no remainingItemCount and no empty page with a continue token', async () => {
    const seen: string[] = [];
    let cont = '';
    for (;;) {
      const res = await c.get<List>(1, `${base}?labelSelector=tenth%3Dyes&limit=2${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.metadata.remainingItemCount).to.equal(undefined);
      if (res.body.metadata.continue) expect(res.body.items).to.have.length(2);
      seen.push(...res.body.items.map((it) => it.metadata.name));
      if (!res.body.metadata.continue) break;
      cont = res.body.metadata.continue;
    }
    expect(seen).to.deep.equal(['cm-00', 'cm-10', 'cm-20']);
  });

  it('Exact and legacy limit+rv read a past revision; NotOlderThan and plain rv read the newest', async () => {
    const before = await c.get<List>(0, base);
    const pastRV = before.body.metadata.resourceVersion;
    const upd = await c.put<{ metadata: { resourceVersion: string } }>(1, `${base}/cm-00`, { metadata: { name: 'cm-00' }, data: { i: 'changed' } });
    expect(upd.status, upd.text).to.equal(200);
    const newRV = upd.body.metadata.resourceVersion;
    const val = (l: List) => l.items.find((it) => it.metadata.name === 'cm-00')?.data?.i;
    const cases: Array<[string, string, string]> = [
      [`resourceVersion=${pastRV}&resourceVersionMatch=Exact`, pastRV, '0'],
      [`resourceVersion=${pastRV}&resourceVersionMatch=Exact&limit=5`, pastRV, '0'],
      [`resourceVersion=${pastRV}&limit=5`, pastRV, '0'],
      [`resourceVersion=${pastRV}`, newRV, 'changed'],
      [`resourceVersion=${pastRV}&resourceVersionMatch=NotOlderThan`, newRV, 'changed'],
      [`resourceVersion=${pastRV}&resourceVersionMatch=NotOlderThan&limit=5`, newRV, 'changed'],
      ['', newRV, 'changed'],
      ['limit=5', newRV, 'changed'],
    ];
    for (const [query, rv, v] of cases) {
      const res = await c.get<List>(0, `${base}?${query}`);
      expect(res.status, `${query}: ${res.text}`).to.equal(200);
      // A read of the newest state answers etcd's current revision, which another writer
      // (a replica renewing its lease) may have moved past the update's.
      if (rv === pastRV) expect(res.body.metadata.resourceVersion, query).to.equal(rv);
      else expect(Number(res.body.metadata.resourceVersion), query).to.be.at.least(Number(rv));
      expect(val(res.body), query).to.equal(v);
    }
    const anyState: number[] = [];
    for (const query of ['resourceVersion=0', 'resourceVersion=0&limit=5', 'resourceVersion=0&resourceVersionMatch=NotOlderThan']) {
      const res = await c.get<List>(1, `${base}?${query}`);
      expect(res.status, `${query}: ${res.text}`).to.equal(200);
      expect(Number(res.body.metadata.resourceVersion)).to.be.at.least(Number(newRV));
      // Served by the watch cache, as upstream's: whole, a limit notwithstanding.
      expect(res.body.metadata.continue, query).to.equal(undefined);
      anyState.push(res.body.items.length);
    }
    expect(anyState[0]).to.be.greaterThan(5);
    expect(new Set(anyState).size).to.equal(1);
    // continue with rv=0: the token's revision wins.
    const first = await c.get<List>(0, `${base}?resourceVersion=${pastRV}&limit=5`);
    const next = await c.get<List>(1, `${base}?limit=5&resourceVersion=0&continue=${encodeURIComponent(first.body.metadata.continue!)}`);
    expect(next.status, next.text).to.equal(200);
    expect(next.body.metadata.resourceVersion).to.equal(pastRV);
  });

  it('refuses the invalid combinations with upstream\'s codes and messages', async () => {
    const first = await c.get<List>(0, `${base}?limit=5`);
    const token = encodeURIComponent(first.body.metadata.continue!);
    const invalid = (detail: string) => `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: ${detail}`;
    let s = expectStatus(await c.get(0, `${base}?resourceVersionMatch=Exact`), 422, 'Invalid',
      invalid('resourceVersionMatch is forbidden unless resourceVersion is provided'));
    expect(s.details?.causes).to.deep.equal([{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' }]);
    expectStatus(await c.get(0, `${base}?resourceVersionMatch=NotOlderThan&limit=3`), 422, 'Invalid',
      invalid('resourceVersionMatch is forbidden unless resourceVersion is provided'));
    expectStatus(await c.get(0, `${base}?resourceVersion=0&resourceVersionMatch=Exact`), 422, 'Invalid',
      invalid('resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    expectStatus(await c.get(0, `${base}?resourceVersion=0&resourceVersionMatch=Exact&limit=2`), 422, 'Invalid',
      invalid('resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    expectStatus(await c.get(0, `${base}?resourceVersion=0&resourceVersionMatch=NotOlderThan&continue=${token}`), 422, 'Invalid',
      invalid('resourceVersionMatch is forbidden when continue is provided'));
    expectStatus(await c.get(0, `${base}?resourceVersionMatch=Newest&resourceVersion=5`), 422, 'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""');
    expectStatus(await c.get(1, `${base}?limit=5&resourceVersion=${first.body.metadata.resourceVersion}&continue=${token}`), 400, 'BadRequest',
      'specifying resource version is not allowed when using continue');
    expectStatus(await c.get(1, `${base}?limit=5&continue=bm90LWpzb24`), 400, 'BadRequest',
      /^invalid continue token: continue key is not valid: incorrect encoded start resourceVersion \(version meta\.k8s\.io\/v1\)/);
    s = expectStatus(await c.get(0, `${base}?sendInitialEvents=true`), 422, 'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
  });

  it('a revision that never comes: 504 Timeout "Too large resource version" with Retry-After, for list and get', async () => {
    const now = Number((await c.get<List>(0, base)).body.metadata.resourceVersion);
    const far = now + 100_000;
    const started = Date.now();
    const paths = [
      `${base}?resourceVersion=${far}`,
      `${base}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`,
      `${base}?resourceVersion=${far}&resourceVersionMatch=Exact`,
      `${base}/cm-01?resourceVersion=${far}`,
    ];
    const results = await Promise.all(paths.map(async (path) => ({ path, res: await c.get(1, path), ms: Date.now() - started })));
    for (const { path, res, ms } of results) {
      const s = expectStatus(res, 504, 'Timeout', new RegExp(`^Timeout: Too large resource version: ${far}, current: \\d+$`));
      expect(res.headers['retry-after'], path).to.equal('1');
      expect(s.details?.retryAfterSeconds).to.equal(1);
      // The cause clients (client-go's reflector) look for to tell it from other timeouts.
      expect((s.details as { causes?: unknown[] } | undefined)?.causes).to.deep.equal([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
      expect(ms).to.be.within(2500, 8000);
    }
  });
});

describe('list over HTTP: 410 after compaction, and the APIListChunking gate', function () {
  this.timeout(120_000);
  let etcd: TestCluster;
  let cluster: Cluster;
  let c: ReturnType<typeof client>;
  const ns = 'compacted';
  const base = `/api/v1/namespaces/${ns}/configmaps`;

  before(async () => {
    etcd = await startTestCluster(1);
    cluster = await startReplicas(2, {
      etcdEndpoint: etcd.endpoints[0],
      extraArgs: (i) => (i === 1 ? [...withoutRootCA, '--feature-gates=APIListChunking=false'] : withoutRootCA),
    });
    c = client(cluster);
    await seed(c, ns, 6);
  });
  after(async () => {
    await cluster?.stop();
    await etcd?.stop();
  });

  it('APIListChunking=false ignores limit and continue: the whole list, no continue token', async () => {
    const res = await c.get<List>(1, `${base}?limit=2`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.items).to.have.length(6);
    expect(res.body.metadata.continue).to.equal(undefined);
    const chunked = await c.get<List>(0, `${base}?limit=2`);
    expect(chunked.body.items).to.have.length(2);
    expect(chunked.body.metadata.continue).to.be.a('string');
  });

  it('a continue token compacted by the replicas\' compactor is 410 Expired with a fresh token; an Exact list at a compacted revision is 410', async () => {
    const first = await c.get<List>(0, `${base}?limit=2`);
    const oldRV = first.body.metadata.resourceVersion;
    await c.put(0, `${base}/cm-00`, { metadata: { name: 'cm-00' }, data: { i: 'x' } });
    // As a replica's compactor does (compact_rev_key), which every replica's watch cache
    // learns through its watch of that key; a compaction that skips the key is etcd's to
    // answer (storage-compact-revision.test.ts).
    const etcdClient = new Etcd3({ hosts: etcd.endpoints });
    try {
      // The first win only records where history starts; the next compacts to it.
      let state: CompactorState = { time: 0, revision: 0 };
      let compacted: number | undefined;
      for (let tick = 0; tick < 4 && compacted === undefined; tick++) ({ state, compacted } = await compactTick(etcdClient, state));
      expect(compacted).to.be.greaterThan(Number(oldRV));
    } finally {
      etcdClient.close();
    }
    // The replica learns of it through its watch, a moment after the swap.
    const page = () => c.get(0, `${base}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue!)}`);
    let res = await page();
    for (const deadline = Date.now() + 10_000; res.status === 200 && Date.now() < deadline; res = await page()) await new Promise((r) => setTimeout(r, 50));
    const s = expectStatus(res, 410, 'Expired', /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results\. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list\.$/);
    expect(s.metadata?.continue).to.be.a('string');
    const rest = await c.get<List>(0, `${base}?limit=10&continue=${encodeURIComponent(s.metadata!.continue!)}`);
    expect(rest.status, rest.text).to.equal(200);
    expect(rest.body.items.map((i) => i.metadata.name)).to.deep.equal(['cm-02', 'cm-03', 'cm-04', 'cm-05']);
    expectStatus(await c.get(0, `${base}?resourceVersion=${oldRV}&resourceVersionMatch=Exact`), 410, 'Expired',
      'The resourceVersion for the provided list is too old.');
    expectStatus(await c.get(0, `${base}?resourceVersion=${oldRV}&limit=3`), 410, 'Expired',
      'The resourceVersion for the provided list is too old.');
  });
});
