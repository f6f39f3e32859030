// Response compression as upstream's APIResponseCompression (beta, on in v1.28): an API
// response over 128 KiB is gzip-compressed when Accept-Encoding names gzip, in JSON and
// protobuf alike, decompressing to the very bytes of the plain response; smaller bodies,
// other encodings, an Accept-Encoding token that is not exactly `gzip`, and a replica with
// the gate off answer uncompressed. kubectl (which asks for gzip, as all of client-go)
// reads the compressed list.
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { kubectl, request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

const protobuf = 'application/vnd.kubernetes.protobuf';

describe('response compression (APIResponseCompression)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `gzip-${Date.now().toString(36)}`;
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  let exact = '';
  const get = (replica: number, path: string, headers: Record<string, string> = {}): Promise<HttpResponse<unknown>> =>
    request(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), headers });

  before(async () => {
    // Replica 1 runs with the gate off.
    cluster = await startReplicas(2, { extraArgs: (i) => ['--controllers=*,-root-ca-cert-publisher', ...(i === 1 ? ['--feature-gates=APIResponseCompression=false'] : [])] });
    const creds = cluster.credentialsFor();
    expect((await request(`${cluster.urls[0]}/api/v1/namespaces`, { ...creds, method: 'POST', body: { metadata: { name: ns } } })).status).to.equal(201);
    for (let i = 0; i < 200; i++) {
      const res = await request(`${cluster.urls[0]}${base}`, { ...creds, method: 'POST', body: { metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(1024) } } });
      expect(res.status, res.text).to.equal(201);
    }
    const list = await get(0, base);
    exact = `${base}?resourceVersion=${(list.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion}&resourceVersionMatch=Exact`;
  });
  after(async () => { await cluster?.stop(); });

  for (const accept of ['application/json', protobuf]) {
    it(`gzips a list over 128 KiB for Accept-Encoding: gzip (${accept}), to the bytes of the plain answer`, async () => {
      const plain = await get(0, exact, { Accept: accept });
      expect(plain.status).to.equal(200);
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.raw.length).to.be.greaterThan(128 * 1024);
      expect(Number(plain.headers['content-length'])).to.equal(plain.raw.length);

      const zipped = await get(0, exact, { Accept: accept, 'Accept-Encoding': 'gzip' });
      expect(zipped.status).to.equal(200);
      expect(zipped.headers['content-encoding']).to.equal('gzip');
      expect(zipped.headers['vary']).to.match(/Accept-Encoding/);
      expect(zipped.headers['content-length']).to.equal(undefined);
      expect(zipped.headers['content-type']).to.equal(plain.headers['content-type']);
      expect(zipped.raw.length).to.be.lessThan(plain.raw.length / 4);
      expect(gunzipSync(zipped.raw).equals(plain.raw)).to.equal(true);
    });
  }

  it('gzips a single object over 128 KiB too', async () => {
    const creds = cluster.credentialsFor();
    const big = await request(`${cluster.urls[0]}${base}`, { ...creds, method: 'POST', body: { metadata: { name: 'big' }, data: { v: 'y'.repeat(300 * 1024) } } });
    expect(big.status, big.text).to.equal(201);
    const plain = await get(0, `${base}/big`);
    const zipped = await get(0, `${base}/big`, { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(zipped.raw).equals(plain.raw)).to.equal(true);
    await request(`${cluster.urls[0]}${base}/big`, { ...creds, method: 'DELETE' });
  });

  it('leaves small bodies, other encodings and inexact tokens uncompressed; "deflate, gzip" is gzip', async () => {
    const one = await get(0, `${base}/cm-1`, { 'Accept-Encoding': 'gzip' });
    expect(one.status).to.equal(200);
    expect(one.headers['content-encoding']).to.equal(undefined);
    expect(Number(one.headers['content-length'])).to.equal(one.raw.length);
    for (const header of ['deflate', 'br', 'gzip;q=1.0', 'GZIP']) {
      const res = await get(0, exact, { 'Accept-Encoding': header });
      expect(res.headers['content-encoding'], header).to.equal(undefined);
    }
    const listed = await get(0, exact, { 'Accept-Encoding': 'deflate, gzip' });
    expect(listed.headers['content-encoding']).to.equal('gzip');
  });

  it('with --feature-gates=APIResponseCompression=false the same list is sent plain', async () => {
    const res = await get(1, exact, { 'Accept-Encoding': 'gzip' });
    expect(res.status).to.equal(200);
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.raw.length).to.be.greaterThan(128 * 1024);
  });

  it('kubectl reads the compressed list (it asks for gzip, as client-go does)', async () => {
    // Go's transport decompresses by itself and drops Content-Encoding before kubectl sees
    // it, so the server's account of the bytes it sent tells that they were compressed.
    const sentBytes = async (): Promise<number> => {
      const text = (await get(0, '/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith('apiserver_response_sizes_sum{') && l.includes('resource="configmaps"') && l.includes('verb="LIST"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const plain = (await get(0, `${base}?limit=500`)).raw.length;
    const before = await sentBytes();
    const r = await kubectl(['get', 'configmaps', '-n', ns, '-o', 'name'], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim().split('\n')).to.have.length(200);
    const sent = (await sentBytes()) - before;
    expect(sent).to.be.greaterThan(0);
    expect(sent).to.be.lessThan(plain / 4);
  });
});
