// Request limits and graceful shutdown through real replicas: --request-timeout and the
// `timeout` parameter, --max-request-body-bytes, and SIGTERM as upstream handles it
// (readyz fails first while requests are still served, in-flight requests finish, watches
// end cleanly, the listener closes after --shutdown-delay-duration, or answers 429 with
// --shutdown-send-retry-after; HTTP/2 clients get a GOAWAY where HTTP/1.1 ones get
// Connection: close, and their open watches run on until the watches end); then a rolling restart of two replicas behind HAProxy
// (health-checking /readyz) under load, where every request is answered.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { connectH2, h2Request, h2Watch, request, startHAProxy, startReplicas, watch, type Cluster } from '../harness/index.js';

interface Slow { response: Promise<{ status: number; body: string }>; finish(rest?: string): void }

/** A POST whose body arrives only when finish() is called: a request held in flight. */
function slowPost(cluster: Cluster, url: string, body: string): Slow {
  const creds = cluster.credentialsFor();
  const u = new URL(url);
  const req = https.request({
    method: 'POST', hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: false,
    ca: creds.ca, cert: creds.cert, key: creds.key,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.once('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { response, finish: (rest = body.slice(half)) => req.end(rest) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Error-level lines (pino level 50 and up) replica `i` logged: a clean shutdown has none (issue 25). */
const errorLines = (cluster: Cluster, i: number): string[] =>
  readFileSync(cluster.replicas[i]!.logFile, 'utf8').split('\n').filter((l) => /"level":[56]\d\b/.test(l));

async function until(what: string, fn: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const configMap = (name: string, data = 'x') => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: data } });

describe('request limits (--request-timeout, timeout=, --max-request-body-bytes)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--request-timeout=1s', '--max-request-body-bytes=4096'] });
  });
  after(() => cluster?.stop());

  it('stays ready once ready: no /readyz after the first 200 fails while controllers start (fresh etcd prefix)', async () => {
    // The controllers' informers count in informer-sync: started after ready, they turned
    // /readyz back to 500 for a moment (CI caught one such answer).
    const answers: number[] = [];
    for (const end = Date.now() + 800; Date.now() < end;) {
      answers.push((await request(`${cluster.urls[0]}/readyz`, cluster.credentialsFor())).status);
      await sleep(10);
    }
    expect(answers.filter((s) => s !== 200), `${answers.length} answers`).to.deep.equal([]);
  });

  it('answers 504 Timeout when a request is not done within --request-timeout', async () => {
    const url = `${cluster.urls[0]}/api/v1/namespaces/default/configmaps`;
    const slow = slowPost(cluster, url, configMap('late'));
    const started = Date.now();
    const res = await slow.response;
    expect(Date.now() - started).to.be.within(900, 5000);
    expect(res.status).to.equal(504);
    expect(JSON.parse(res.body)).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded', reason: 'Timeout', details: {}, code: 504,
    });
    slow.finish('');
  });

  it('refuses a malformed timeout parameter with 400 and keeps a valid one', async () => {
    const bad = await request<Record<string, unknown>>(`${cluster.urls[0]}/api/v1/namespaces?timeout=soon`, cluster.credentialsFor());
    expect(bad.status).to.equal(400);
    expect(bad.body).to.include({ reason: 'BadRequest', message: 'invalid timeout specified in the request URL - time: invalid duration "soon"' });
    const ok = await request(`${cluster.urls[0]}/api/v1/namespaces?timeout=30s`, cluster.credentialsFor());
    expect(ok.status).to.equal(200);
  });

  it('does not time out watches, which are long-running', async () => {
    const w = await watch(`${cluster.urls[0]}/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=3`, cluster.credentialsFor());
    await sleep(1500);
    expect(w.ended()).to.equal(false);
    w.close();
  });

  it('refuses bodies over --max-request-body-bytes with 413 and accepts smaller ones', async () => {
    const url = `${cluster.urls[0]}/api/v1/namespaces/default/configmaps`;
    const big = await request<Record<string, unknown>>(url, { ...cluster.credentialsFor(), method: 'POST', body: configMap('big', 'y'.repeat(5000)), headers: { 'Content-Type': 'application/json' } });
    expect(big.status).to.equal(413);
    expect(big.body).to.include({ reason: 'RequestEntityTooLarge', code: 413 });
    const small = await request(url, { ...cluster.credentialsFor(), method: 'POST', body: configMap('small'), headers: { 'Content-Type': 'application/json' } });
    expect(small.status).to.equal(201);
  });
});

describe('graceful shutdown on SIGTERM', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  afterEach(() => cluster?.stop());

  it('fails readyz first while serving, finishes in-flight requests, ends watches cleanly, then stops listening', async () => {
    cluster = await startReplicas(1, { extraArgs: ['--shutdown-delay-duration=2s'] });
    const base = cluster.urls[0]!;
    const creds = cluster.credentialsFor();
    const w = await watch(`${base}/api/v1/namespaces/default/configmaps?watch=1`, creds);
    const { session } = await connectH2(base, creds);
    const goaway = new Promise<number>((resolve) => session.once('goaway', (code) => resolve(code)));
    const h2w = h2Watch(session, '/api/v1/namespaces/default/configmaps?watch=1', () => undefined);
    expect(await h2w.status).to.equal(200);
    let h2Ended = false;
    h2w.stream.once('end', () => { h2Ended = true; });
    const slow = slowPost(cluster, `${base}/api/v1/namespaces/default/configmaps`, configMap('in-flight'));
    process.kill(cluster.replicas[0]!.pid!, 'SIGTERM');
    await until('readyz to fail', async () => (await request(`${base}/readyz`, creds)).status === 500);
    const during = await request(`${base}/api/v1/namespaces/default`, creds);
    expect(during.status, 'still serving during the shutdown delay').to.equal(200);
    expect(during.headers.connection).to.equal('close');
    expect(w.ended()).to.equal(false);
    expect((await h2Request(session, 'GET', '/api/v1/namespaces/default')).status, 'over HTTP/2 too').to.equal(200);
    expect(await goaway, 'then a GOAWAY (NO_ERROR), as Go sends for Connection: close').to.equal(0);
    expect(h2Ended, 'the HTTP/2 watch runs on').to.equal(false);

    await until('the listener to close', async () => {
      try { await request(`${base}/version`, { ...creds, timeoutMs: 1000 }); return false; } catch (e) { return /ECONNREFUSED/.test(String(e)); }
    });
    slow.finish();
    expect((await slow.response).status, 'the in-flight create completes').to.equal(201);
    await until('the watch to end', () => w.ended());
    await until('the HTTP/2 watch to end cleanly', () => h2Ended);
    session.destroy();
    await cluster.stopReplica(0);
    expect(errorLines(cluster, 0)).to.deep.equal([]);
  });

  it('with --shutdown-send-retry-after answers new requests 429 with Retry-After while draining', async () => {
    cluster = await startReplicas(1, { extraArgs: ['--shutdown-delay-duration=1s', '--shutdown-send-retry-after=true'] });
    const base = cluster.urls[0]!;
    const creds = cluster.credentialsFor();
    const slow = slowPost(cluster, `${base}/api/v1/namespaces/default/configmaps`, configMap('held'));
    process.kill(cluster.replicas[0]!.pid!, 'SIGTERM');
    let refused: Awaited<ReturnType<typeof request>> | undefined;
    await until('429 after the delay', async () => {
      refused = await request(`${base}/api/v1/namespaces`, creds);
      return refused.status === 429;
    });
    expect(refused!.headers['retry-after']).to.equal('5');
    expect(refused!.headers.connection).to.equal('close');
    expect(refused!.text).to.equal('The apiserver is shutting down, please try again later.\n');
    expect((await request(`${base}/livez`, creds)).status, 'health endpoints are exempt').to.equal(200);
    slow.finish();
    expect((await slow.response).status).to.equal(201);
    await cluster.stopReplica(0);
    expect(errorLines(cluster, 0)).to.deep.equal([]);
  });
});

describe('rolling restart behind HAProxy', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  after(() => cluster?.stop());

  it('answers every request while each replica in turn is restarted under load', async () => {
    // RBAC, not AlwaysAllow (which turns anonymous requests off): HAProxy checks /readyz anonymously.
    // The delay is how long a stopping replica keeps serving while /readyz fails, so that the
    // balancer stops sending it new connections first; HAProxy checks every 200 ms, but at
    // CI's load (15-25) 1 s was once not enough (16 of 2,195 requests met a closed listener).
    // Each replica its own advertise address, as replicas on separate machines have: two that
    // share one share its master lease key, so the one stopping deletes the key the other has
    // just renewed, and the other's next sync finds no lease at all and logs upstream's
    // "refusing to erase all endpoints" error (seen once on CI).
    cluster = await startReplicas(2, {
      authorizationMode: 'RBAC',
      extraArgs: (i) => ['--shutdown-delay-duration=3s', `--advertise-address=192.0.2.${31 + i}`],
    });
    const lb = await startHAProxy(cluster.replicas.map((r) => r.port));
    const creds = cluster.credentialsFor();
    const agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca: creds.ca, cert: creds.cert, key: creds.key });
    const failures: string[] = [];
    let answered = 0;
    let running = true;
    const get = () => new Promise<void>((resolve) => {
      const req = https.request(`${lb.url}/api/v1/namespaces/default`, { agent }, (res) => {
        res.resume();
        res.on('end', () => { if (res.statusCode === 200) answered++; else failures.push(`status ${res.statusCode}`); resolve(); });
      });
      req.on('error', (e) => { failures.push(String(e)); resolve(); });
      req.end();
    });
    const workers = Array.from({ length: 6 }, async () => { while (running) await get(); });
    const steps: string[] = [];
    const step = (what: string) => steps.push(`${new Date().toISOString()} ${what}`);
    let lbOutput = '';
    try {
      for (const i of [0, 1]) {
        await sleep(500);
        step(`stop ${i} (${failures.length} failed so far)`);
        await cluster.stopReplica(i);
        step(`start ${i} (${failures.length})`);
        await cluster.startReplica(i);
        step(`started ${i} (${failures.length})`);
      }
      await sleep(500);
    } finally {
      running = false;
      await Promise.all(workers);
      agent.destroy();
      lbOutput = lb.output();
      await lb.stop();
    }
    const kinds = [...new Set(failures)].slice(0, 5).join('; ');
    const states = lbOutput.split('\n').filter((l) => /Server|backend/.test(l)).join('\n');
    expect(failures.length, `${failures.length} of ${answered + failures.length} requests failed: ${kinds}\n${steps.join('\n')}\nhaproxy:\n${states}`).to.equal(0);
    expect(answered).to.be.greaterThan(100);
    // Requests kept arriving through each replica's shutdown; none became an internal error.
    expect([...errorLines(cluster, 0), ...errorLines(cluster, 1)]).to.deep.equal([]);
  });
});
