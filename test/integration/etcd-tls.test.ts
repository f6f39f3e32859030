// Replicas on an etcd that requires client certificates (as kubeadm's does): CRUD and
// paginated lists over mutual TLS, a client certificate renewed on disk picked up without a restart, the
// handshake's reason in the log (once) and behind /readyz when etcd refuses us, a replica
// that listens and answers health checks before etcd answers (and stops at once on
// SIGTERM then), and start-up errors naming the flag and the file.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberClient, startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { compactTick, type CompactorState } from '../../pkg/storage/etcd/compactor.js';
import { createEtcdPki, etcdServerTLS, type EtcdPki } from '../harness/etcd-tls.js';
import { freePort, request, serverNodeArgs, spawnTracked, startReplicas, until, type Cluster } from '../harness/index.js';


/** Runs a replica that cannot start, until its output matches `expected` (or it exits). */
async function startFailing(dir: string, args: string[], expected: RegExp): Promise<{ output: string; exitCode: number | null }> {
  const logFile = join(dir, `failing-${Date.now()}.log`);
  writeFileSync(logFile, '');
  const { openSync } = await import('node:fs');
  const fd = openSync(logFile, 'a');
  const p = spawnTracked(process.execPath, serverNodeArgs([`--secure-port=${await freePort()}`, '--bind-address=127.0.0.1',
    `--cert-dir=${join(dir, 'certs')}`, '--service-account-issuer=https://kubernetes.default.svc', '--logging-format=json', ...args]),
  { stdio: ['ignore', fd, fd] });
  let exitCode: number | null = null;
  let exited = false;
  void p.exited.then((c) => { exitCode = c; exited = true; });
  try {
    await until(`output matching ${expected}`, () => exited || expected.test(readFileSync(logFile, 'utf8')), 30_000, 100);
  } finally {
    await p.stop(2000);
  }
  return { output: readFileSync(logFile, 'utf8'), exitCode };
}

/** One log record holding every one of `parts`. */
function lineWith(output: string, ...parts: string[]): boolean {
  return output.split('\n').some((l) => parts.every((p) => l.includes(p)));
}

describe('replicas on a mutual-TLS etcd', function () {
  this.timeout(120_000);
  let dir: string;
  let pki: EtcdPki;
  let etcd: TestCluster;
  let replicas: Cluster | undefined;
  /** The replica's --etcd-certfile/--etcd-keyfile, rewritten to simulate renewal. */
  let certFile: string;
  let keyFile: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'etcd-tls-test-'));
    pki = await createEtcdPki(join(dir, 'pki'));
    etcd = await startTestCluster(1, { tls: etcdServerTLS(pki) });
    certFile = join(dir, 'client.crt');
    keyFile = join(dir, 'client.key');
    copyFileSync(pki.apiserverClient.certFile, certFile);
    copyFileSync(pki.apiserverClient.keyFile, keyFile);
  });
  after(async () => {
    await replicas?.stop();
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const clientArgs = () => [`--etcd-cafile=${pki.ca.certFile}`, `--etcd-certfile=${certFile}`, `--etcd-keyfile=${keyFile}`];

  it('serves CRUD over mutual TLS, writing into that etcd, with the etcd checks passing', async () => {
    replicas = await startReplicas(1, { etcdEndpoint: etcd.endpoints[0], extraArgs: clientArgs() });
    const base = `${replicas.urls[0]}/api/v1/namespaces/default/configmaps`;
    const creds = replicas.credentialsFor();
    const created = await request<{ metadata: { resourceVersion: string } }>(base, { ...creds, method: 'POST', body: { metadata: { name: 'over-tls' }, data: { a: '1' } } });
    expect(created.status).to.equal(201);
    const got = await request<{ data: Record<string, string> }>(`${base}/over-tls`, creds);
    expect(got.status).to.equal(200);
    expect(got.body.data).to.deep.equal({ a: '1' });
    const client = memberClient(etcd.endpoints, etcdServerTLS(pki).probe);
    try {
      const kv = await client.get(`${replicas.etcdPrefix}/configmaps/default/over-tls`).exec();
      expect(kv.kvs).to.have.length(1);
      expect(kv.kvs[0]!.mod_revision).to.equal(created.body.metadata.resourceVersion);
    } finally {
      client.close();
    }
    const ready = await request(`${replicas.urls[0]}/readyz?verbose`, creds);
    expect(ready.status).to.equal(200);
    expect(ready.text).to.include('[+]etcd ok\n').and.include('[+]etcd-readiness ok\n');
  });

  it('pages a list over mutual TLS: continue pages learn of compaction on the client\'s own connection (its watch of compact_rev_key), 410 once compacted', async () => {
    const creds = replicas!.credentialsFor();
    const base = `${replicas!.urls[0]}/api/v1/namespaces/default/configmaps`;
    for (const name of ['page-a', 'page-b', 'page-c']) {
      expect((await request(base, { ...creds, method: 'POST', body: { metadata: { name, labels: { paged: 'tls' } } } })).status).to.equal(201);
    }
    type Page = { items: Array<{ metadata: { name: string } }>; metadata: { continue?: string } };
    const names: string[] = [];
    let token = '';
    let first: string | undefined;
    do {
      const page = await request<Page>(`${base}?labelSelector=paged%3Dtls&limit=1${token ? `&continue=${encodeURIComponent(token)}` : ''}`, creds);
      expect(page.status, page.text).to.equal(200);
      names.push(...page.body.items.map((i) => i.metadata.name));
      token = page.body.metadata.continue ?? '';
      first ??= token;
    } while (token);
    expect(names).to.deep.equal(['page-a', 'page-b', 'page-c']);
    const client = memberClient(etcd.endpoints, etcdServerTLS(pki).probe);
    try {
      await client.put(`${replicas!.etcdPrefix}/compaction-marker`).value('x');
      // As a replica's compactor compacts (compact_rev_key): the first win records, the next compacts.
      let state: CompactorState = { time: 0, revision: 0 };
      let compacted: number | undefined;
      for (let tick = 0; tick < 4 && compacted === undefined; tick++) ({ state, compacted } = await compactTick(client, state));
      expect(compacted).to.be.a('number');
    } finally {
      client.close();
    }
    const expired = await until('the replica learned of the compaction', async () => {
      const r = await request<{ reason: string }>(`${base}?labelSelector=paged%3Dtls&limit=1&continue=${encodeURIComponent(first!)}`, creds);
      return r.status === 200 ? undefined : r;
    });
    expect([expired.status, expired.body.reason], expired.text).to.deep.equal([410, 'Expired']);
  });

  it('a renewed certificate etcd refuses: logged once with the reason, /readyz fails on etcd; a good one on disk recovers it without a restart', async () => {
    const creds = replicas!.credentialsFor();
    copyFileSync(pki.strangerClient.certFile, certFile);
    copyFileSync(pki.strangerClient.keyFile, keyFile);
    // Restarting etcd ends the connections; the new ones read the renewed files.
    await etcd.kill(0);
    await etcd.start(0);
    const failing = await until('readyz failing', async () => {
      const r = await request(`${replicas!.urls[0]}/readyz?verbose`, creds);
      return r.status === 500 ? r : undefined;
    }, 30_000, 200);
    expect(failing.text).to.include('[-]etcd-readiness failed: reason withheld\n').and.include('[-]etcd failed: reason withheld\n');
    // The single check's endpoint shows the reason, as upstream's does.
    // (Once a connection was tried: while etcd restarted, the circuit breaker held them back.)
    let lastAnswer = '';
    const one = await until('the handshake reason', async () => {
      const r = await request(`${replicas!.urls[0]}/readyz/etcd-readiness`, creds);
      lastAnswer = `${r.status} ${r.text}`;
      return r.text.includes('TLS handshake failed') ? r : undefined;
    }, 30_000, 200).catch((err: Error) => {
      // A timeout says what the check answered instead, and what the replica logged besides requests.
      const log = readFileSync(replicas!.replicas[0]!.logFile, 'utf8').split('\n').filter((l) => !l.includes('"msg":"HTTP"')).join('\n');
      throw new Error(`${err.message}; last answer: ${lastAnswer}\nreplica log:\n${log.slice(-6000)}`);
    });
    expect(one.status).to.equal(500);
    expect(one.text, one.text).to.match(/^internal server error: error getting data from etcd: .*TLS handshake failed: etcd refused our client certificate/);
    expect(one.text).to.include(etcd.endpoints[0]);
    // Many reconnection attempts, one log record for this endpoint and reason.
    await new Promise((r) => setTimeout(r, 3000));
    const log = readFileSync(replicas!.replicas[0]!.logFile, 'utf8');
    const records = log.split('\n').filter((l) => l.includes('TLS handshake with etcd failed'));
    expect(records, log.slice(-2000)).to.have.length(1);
    expect(records[0]).to.include(etcd.endpoints[0]).and.include('etcd refused our client certificate');

    copyFileSync(pki.apiserverClient.certFile, certFile);
    copyFileSync(pki.apiserverClient.keyFile, keyFile);
    await until('readyz passing again', async () => (await request(`${replicas!.urls[0]}/readyz`, creds)).status === 200, 60_000, 500);
    const got = await request(`${replicas!.urls[0]}/api/v1/namespaces/default/configmaps/over-tls`, creds);
    expect(got.status).to.equal(200);
    await until('recovery logged', () => readFileSync(replicas!.replicas[0]!.logFile, 'utf8').includes('TLS connection to etcd established'), 10_000, 200);
  });

  it('a replica trusting another CA, or sending no client certificate, says why it waits for etcd', async () => {
    const wrongCA = await startFailing(dir, [`--etcd-servers=${etcd.endpoints[0]}`, `--etcd-cafile=${pki.otherCA.certFile}`,
      `--etcd-certfile=${certFile}`, `--etcd-keyfile=${keyFile}`], /waiting for etcd/);
    expect(lineWith(wrongCA.output, 'TLS handshake with etcd failed', 'unable to verify the first certificate'), wrongCA.output.slice(-3000)).to.equal(true);
    expect(lineWith(wrongCA.output, 'waiting for etcd', 'TLS handshake failed: unable to verify the first certificate')).to.equal(true);
    const noCert = await startFailing(dir, [`--etcd-servers=${etcd.endpoints[0]}`, `--etcd-cafile=${pki.ca.certFile}`], /waiting for etcd/);
    expect(lineWith(noCert.output, 'waiting for etcd', 'TLS handshake failed: etcd refused our client certificate'), noCert.output.slice(-3000)).to.equal(true);
  });

  it('listens before etcd answers: /livez and /readyz fail on etcd with the reason, other requests 503, and SIGTERM ends the wait at once', async () => {
    const port = await freePort();
    const nobody = `https://127.0.0.1:${await freePort()}`;
    const logFile = join(dir, 'before-etcd.log');
    const { openSync } = await import('node:fs');
    const fd = openSync(logFile, 'a');
    const p = spawnTracked(process.execPath, serverNodeArgs([`--secure-port=${port}`, '--bind-address=127.0.0.1',
      `--cert-dir=${join(dir, 'certs')}`, '--service-account-issuer=https://kubernetes.default.svc', '--logging-format=json',
      `--etcd-servers=${nobody}`, ...clientArgs()]), { stdio: ['ignore', fd, fd] });
    let exitCode: number | null | undefined;
    void p.exited.then((c) => { exitCode = c; });
    try {
      const url = `https://127.0.0.1:${port}`;
      const ready = await until('/readyz answering', async () => {
        const r = await request(`${url}/readyz?verbose`, { timeoutMs: 5000 }).catch(() => undefined);
        return r?.status === 500 && r.text.includes('[-]etcd-readiness failed') ? r : undefined;
      }, 30_000, 200);
      expect(ready.text).to.include('[-]etcd failed: reason withheld');
      expect(ready.text).to.include('[-]poststarthook/rbac/bootstrap-roles failed: reason withheld');
      expect(ready.text.endsWith('readyz check failed\n')).to.equal(true);
      const reason = await request(`${url}/readyz/etcd-readiness`);
      expect(reason.status).to.equal(500);
      expect(reason.text, reason.text).to.match(/^internal server error: error getting data from etcd: .*(ECONNREFUSED|No connection established|UNAVAILABLE)/);
      const live = await request(`${url}/livez?verbose`);
      expect(live.status).to.equal(500);
      expect(live.text).to.include('[+]ping ok');
      expect(live.text).to.include('[-]etcd failed: reason withheld');
      const api = await request<{ reason: string; code: number }>(`${url}/api/v1/namespaces`);
      expect(api.status).to.equal(503);
      expect(api.headers['retry-after']).to.equal('1');
      expect(api.body).to.include({ reason: 'ServiceUnavailable', code: 503 });
      const t0 = Date.now();
      p.child.kill('SIGTERM');
      await until('exit after SIGTERM', () => exitCode !== undefined, 5000, 50);
      expect(exitCode).to.equal(0);
      expect(Date.now() - t0).to.be.below(5000);
      expect(readFileSync(logFile, 'utf8')).to.include('stopped before etcd answered');
    } finally {
      await p.stop(2000);
    }
  });

  it('a file that cannot be read or parsed is a start-up error naming the flag and the file', async () => {
    const missing = join(dir, 'nope.crt');
    const r1 = await startFailing(dir, [`--etcd-servers=${etcd.endpoints[0]}`, `--etcd-cafile=${missing}`, `--etcd-certfile=${certFile}`, `--etcd-keyfile=${keyFile}`], /Error: /);
    expect(r1.exitCode).to.equal(1);
    expect(r1.output).to.include(`--etcd-cafile: ${missing}: cannot read`);
    const garbage = join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a certificate\n');
    const r2 = await startFailing(dir, [`--etcd-servers=${etcd.endpoints[0]}`, `--etcd-cafile=${pki.ca.certFile}`, `--etcd-certfile=${garbage}`, `--etcd-keyfile=${keyFile}`], /Error: /);
    expect(r2.exitCode).to.equal(1);
    expect(r2.output).to.include(`--etcd-certfile: ${garbage}: no PEM certificate found`);
    const r3 = await startFailing(dir, [`--etcd-servers=${etcd.endpoints[0]}`, `--etcd-cafile=${pki.ca.certFile}`, `--etcd-certfile=${certFile}`, `--etcd-keyfile=${garbage}`], /Error: /);
    expect(r3.exitCode).to.equal(1);
    expect(r3.output).to.include(`--etcd-keyfile: ${garbage}: cannot parse private key`);
  });
});
