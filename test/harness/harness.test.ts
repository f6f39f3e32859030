import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import {
  createTestPki, kubectl, request, testEtcdClient, testEtcdEndpoint, uniquePrefix, watch, writeKubeconfig,
  HttpError, type TestPki,
} from './index.js';
import { alive } from './processes.js';


describe('test/harness', function () {
  this.timeout(60_000);

  describe('etcd fixture', () => {
    it('serves real puts and gets on 127.0.0.1', async () => {
      const endpoint = await testEtcdEndpoint();
      expect(endpoint).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(process.env['TEST_ETCD_ENDPOINT']).to.equal(endpoint);
      const client = await testEtcdClient();
      try {
        const p = uniquePrefix('harness');
        await client.put(`${p}/a`).value('1');
        await client.put(`${p}/b`).value('2');
        expect(await client.get(`${p}/a`).string()).to.equal('1');
        expect(await client.getAll().prefix(`${p}/`).strings()).to.deep.equal({ [`${p}/a`]: '1', [`${p}/b`]: '2' });
      } finally {
        client.close();
      }
    });

    it('starts an etcd on first use when run without the global fixture, and lets the run end', async () => {
      const moduleUrl = new URL('./etcd.js', import.meta.url).href;
      const script = `import { testEtcdClient, testEtcdEndpoint } from ${JSON.stringify(moduleUrl)};
        const c = await testEtcdClient();
        await c.put('/lazy').value('yes');
        process.stdout.write(JSON.stringify({ endpoint: await testEtcdEndpoint(), value: await c.get('/lazy').string() }));
        c.close();`;
      const env = { ...process.env };
      delete env['TEST_ETCD_ENDPOINT'];
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
      const code = await new Promise((r) => child.once('exit', r));
      expect(code).to.equal(0);
      const got = JSON.parse(out) as { endpoint: string; value: string };
      expect(got.value).to.equal('yes');
      expect(got.endpoint).to.not.equal(process.env['TEST_ETCD_ENDPOINT']);
    });

    it('gives every suite its own key prefix', async () => {
      const a = uniquePrefix('Same Label');
      const b = uniquePrefix('Same Label');
      expect(a).to.not.equal(b);
      expect(a).to.match(/^\/t-same-label-[0-9a-z]+-\d+-[0-9a-f]{6}$/);
      const client = await testEtcdClient();
      try {
        await client.put(`${a}/k`).value('a');
        expect(await client.getAll().prefix(`${b}/`).keys()).to.deep.equal([]);
      } finally {
        client.close();
      }
    });
  });

  describe('PKI, request, watch and kubectl against a TLS server', () => {
    let dir: string;
    let pki: TestPki;
    let server: Server;
    let url: string;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'harness-test-'));
      pki = await createTestPki(join(dir, 'pki'), {
        clientUsers: [{ name: 'alice', groups: ['devs', 'qa'] }],
        tokens: [{ token: 'tok-bob', name: 'bob', groups: ['g1', 'g2'] }],
      });
      // Echoes who it saw: the client cert subject, or the bearer token.
      server = createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
        const sock = req.socket as TLSSocket;
        const peer = sock.getPeerCertificate();
        if (req.url?.startsWith('/stream')) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"type":"ADDED","object":{"n":1}}\n{"type":"MODIFIED",');
          setTimeout(() => res.end('"object":{"n":2}}\n'), 50);
          return;
        }
        if (req.url === '/forbidden') {
          res.writeHead(403, { 'Content-Type': 'application/json' });
          res.end('{"kind":"Status","code":403}');
          return;
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.writeHead(201, { 'Content-Type': 'application/json', 'X-Test': 'yes' });
          res.end(JSON.stringify({
            method: req.method,
            path: req.url,
            authorized: sock.authorized,
            subject: peer && peer.subject ? `${String(peer.subject.O ?? '')}/${String(peer.subject.CN)}` : null,
            authorization: req.headers.authorization ?? null,
            contentType: req.headers['content-type'] ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
          }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    after(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await rm(dir, { recursive: true, force: true });
    });

    it('writes a static token file in upstream CSV form', async () => {
      const { readFile } = await import('node:fs/promises');
      expect(await readFile(pki.tokenFile!, 'utf8')).to.equal('tok-bob,bob,bob,"g1,g2"\n');
    });

    it('request() sends client certs, JSON bodies and parses JSON answers', async () => {
      const admin = pki.clients.get('admin')!;
      const res = await request<Record<string, unknown>>(`${url}/x?y=1`, {
        method: 'POST', ca: pki.ca.cert, cert: admin.cert, key: admin.key, body: { a: 1 },
      });
      expect(res.status).to.equal(201);
      expect(res.headers['x-test']).to.equal('yes');
      expect(res.body).to.deep.equal({
        method: 'POST', path: '/x?y=1', authorized: true, subject: 'system:masters/admin',
        authorization: null, contentType: 'application/json', body: '{"a":1}',
      });
    });

    it('request() sends tokens and raw bodies with a given content type', async () => {
      const res = await request<Record<string, unknown>>(`${url}/p`, {
        method: 'PATCH', ca: pki.ca.cert, token: 'tok-bob', body: '{"b":2}', headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(res.body).to.include({ authorization: 'Bearer tok-bob', contentType: 'application/merge-patch+json', body: '{"b":2}', subject: null });
    });

    it('request() refuses a server not signed by the given CA', async () => {
      const other = await createTestPki(join(dir, 'other'));
      let err: unknown;
      try { await request(`${url}/`, { ca: other.ca.cert }); } catch (e) { err = e; }
      expect(String(err)).to.match(/self.signed|unable to verify|certificate/i);
    });

    it('watch() yields one event per JSON line across chunk boundaries', async () => {
      const w = await watch<{ n: number }>(`${url}/stream`, { ca: pki.ca.cert });
      try {
        expect(w.status).to.equal(200);
        expect(await w.next()).to.deep.equal({ type: 'ADDED', object: { n: 1 } });
        expect(await w.next()).to.deep.equal({ type: 'MODIFIED', object: { n: 2 } });
        let err: unknown;
        try { await w.next(2000); } catch (e) { err = e; }
        expect(String(err)).to.contain('stream ended');
      } finally {
        w.close();
      }
    });

    it('watch() throws the status and body of an error answer', async () => {
      let err: unknown;
      try { await watch(`${url}/forbidden`, { ca: pki.ca.cert }); } catch (e) { err = e; }
      expect(err).to.be.instanceOf(HttpError);
      expect((err as HttpError).status).to.equal(403);
      expect((err as HttpError).text).to.equal('{"kind":"Status","code":403}');
    });

    it('kubeconfig files work with the real kubectl (client cert and token)', async () => {
      const alice = pki.clients.get('alice')!;
      const certCfg = writeKubeconfig(join(dir, 'alice.kubeconfig'), { server: url, ca: pki.ca.cert, user: { name: 'alice', cert: alice.cert, key: alice.key } });
      const r1 = await kubectl(['get', '--raw', '/whoami'], { kubeconfig: certCfg });
      expect(r1.code, r1.stderr).to.equal(0);
      expect(JSON.parse(r1.stdout)).to.include({ authorized: true, subject: 'devs,qa/alice', method: 'GET' });
      const tokCfg = writeKubeconfig(join(dir, 'bob.kubeconfig'), { server: url, ca: pki.ca.cert, user: { name: 'bob', token: 'tok-bob' } });
      const r2 = await kubectl(['get', '--raw', '/whoami'], { kubeconfig: tokCfg });
      expect(r2.code, r2.stderr).to.equal(0);
      expect(JSON.parse(r2.stdout)).to.include({ authorization: 'Bearer tok-bob' });
    });

    it('kubectl() passes stdin and reports failures with their exit code', async () => {
      const cfg = writeKubeconfig(join(dir, 'anon.kubeconfig'), { server: url, ca: pki.ca.cert, user: { name: 'anonymous' } });
      const v = await kubectl(['version', '--client', '-o', 'json'], { kubeconfig: cfg });
      expect(v.code).to.equal(0);
      expect(JSON.parse(v.stdout).clientVersion.gitVersion).to.match(/^v1\.28\./);
      const bad = await kubectl(['apply', '-f', '-'], { kubeconfig: cfg, stdin: 'not: [valid' });
      expect(bad.code).to.not.equal(0);
      expect(bad.stderr).to.match(/error/i);
    });
  });

  describe('processes', () => {
    it('children started with spawnTracked die with a SIGKILLed parent', async () => {
      const moduleUrl = new URL('./processes.js', import.meta.url).href;
      const script = `import { spawnTracked } from ${JSON.stringify(moduleUrl)};
        const t = spawnTracked('sleep', ['120'], { stdio: 'ignore' });
        process.stdout.write(t.pid + '\\n');
        setInterval(() => {}, 1000);`;
      const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const pid = await new Promise<number>((resolve) => {
        let out = '';
        parent.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('\n')) resolve(Number(out.trim())); });
      });
      expect(alive(pid)).to.equal(true);
      parent.kill('SIGKILL');
      const deadline = Date.now() + 10_000;
      while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(alive(pid)).to.equal(false);
    });
  });
});
