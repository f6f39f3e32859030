// TLS serving flags through a real replica: --tls-min-version refuses older clients,
// --tls-cipher-suites limits TLS 1.2 suites to the ones named (Go names), and
// --tls-sni-cert-key serves another certificate to clients that ask for its name. HTTP/2
// as upstream serves it: h2 by ALPN with HTTP/1.1 as fallback, client certificates on both,
// --http2-max-streams-per-connection in the SETTINGS frame, many watches on one session.
import { expect } from 'chai';
import { connect, type TLSSocket, type ConnectionOptions } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientHttp2Session } from 'node:http2';
import { connectH2, h2Request as h2, h2Watch, request, startReplicas, type Cluster } from '../harness/index.js';
import { generateCA, issueCertificate } from '../../pkg/util/cert/issue.js';
import { parseOptions } from '../../pkg/server/options.js';

function handshake(url: string, opts: ConnectionOptions): Promise<TLSSocket> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false, ...opts }, () => resolve(s));
    s.once('error', reject);
  });
}

describe('TLS serving flags', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let dir: string;
  let sniCert: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tls-flags-'));
    const ca = await generateCA('sni-ca');
    const pair = await issueCertificate(ca, { cn: 'api.example.test', usage: 'server', dnsNames: ['api.example.test'] });
    sniCert = pair.cert;
    writeFileSync(join(dir, 'sni.crt'), pair.cert);
    writeFileSync(join(dir, 'sni.key'), pair.key);
    cluster = await startReplicas(1, { clientUsers: [{ name: 'alice', groups: ['devs'] }], extraArgs: [
      '--http2-max-streams-per-connection=300',
      '--tls-min-version=VersionTLS12', '--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
      `--tls-sni-cert-key=${join(dir, 'sni.crt')},${join(dir, 'sni.key')}`,
    ] });
  });
  after(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses TLS 1.1 clients and negotiates only the named TLS 1.2 suites', async () => {
    let refused: unknown;
    await handshake(cluster.urls[0]!, { maxVersion: 'TLSv1.1', minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' }).then((s) => s.destroy(), (e) => { refused = e; });
    expect(refused, 'a TLS 1.1 handshake fails').to.be.instanceOf(Error);
    const s = await handshake(cluster.urls[0]!, { maxVersion: 'TLSv1.2' });
    expect(s.getCipher().name).to.equal('ECDHE-ECDSA-AES256-GCM-SHA384');
    s.destroy();
    let noSuite: unknown;
    await handshake(cluster.urls[0]!, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }).then((x) => x.destroy(), (e) => { noSuite = e; });
    expect(noSuite, 'a suite not named is refused').to.be.instanceOf(Error);
  });

  it('serves the SNI certificate for its name and the default one otherwise', async () => {
    const named = await handshake(cluster.urls[0]!, { servername: 'api.example.test' });
    expect(new X509Certificate(named.getPeerX509Certificate()!.raw).fingerprint256).to.equal(new X509Certificate(sniCert).fingerprint256);
    named.destroy();
    const other = await handshake(cluster.urls[0]!, { servername: 'localhost' });
    expect(other.getPeerX509Certificate()!.subject).to.include('CN=kube-apiserver');
    other.destroy();
  });

  it('offers no session to resume: a TLS 1.3 client presenting its ticket gets a full handshake', async () => {
    const u = new URL(cluster.urls[0]!);
    const opts = { host: u.hostname, port: Number(u.port), rejectUnauthorized: false, minVersion: 'TLSv1.3' as const, ...cluster.credentialsFor('alice') };
    // Tickets arrive after the handshake; listen from the start so none is missed.
    const ticket = await new Promise<Buffer>((resolve, reject) => {
      const s = connect(opts);
      s.once('session', (t: Buffer) => { resolve(t); s.destroy(); });
      s.once('error', reject);
    });
    const again = await handshake(cluster.urls[0]!, { ...opts, session: ticket });
    expect(again.isSessionReused()).to.equal(false);
    again.destroy();
  });

  it('refuses unknown versions and suites at start-up with upstream words', () => {
    expect(() => parseOptions(['--tls-min-version=VersionTLS14'])).to.throw('unknown tls version "VersionTLS14"');
    expect(() => parseOptions(['--tls-cipher-suites=TLS_NOPE'])).to.throw("Cipher suite TLS_NOPE not supported or doesn't exist");
    expect(parseOptions([]).tls.minVersion).to.equal('TLSv1.2');
  });

  describe('HTTP/2', () => {
    const sessions: ClientHttp2Session[] = [];
    const open = async (user = 'admin') => {
      const { session, remoteSettings } = await connectH2(cluster.urls[0]!, cluster.credentialsFor(user));
      sessions.push(session);
      return { session, settings: remoteSettings.then((st) => st.maxConcurrentStreams) };
    };
    after(() => { for (const s of sessions) s.destroy(); });

    it('negotiates h2 by ALPN, advertises --http2-max-streams-per-connection, and still serves HTTP/1.1', async () => {
      const { session, settings } = await open();
      expect(session.alpnProtocol).to.equal('h2');
      expect(await settings, 'SETTINGS_MAX_CONCURRENT_STREAMS').to.equal(300);
      expect((await h2(session, 'GET', '/api/v1/namespaces/default')).status).to.equal(200);
      const http1 = await handshake(cluster.urls[0]!, { ALPNProtocols: ['http/1.1'] });
      expect(http1.alpnProtocol).to.equal('http/1.1');
      http1.destroy();
      // The harness's client speaks HTTP/1.1 only (no ALPN).
      const res = await request(`${cluster.urls[0]}/api/v1/namespaces/default`, cluster.credentialsFor('admin'));
      expect(res.status).to.equal(200);
      expect(parseOptions([]).http2MaxStreamsPerConnection, 'default: 250 as Go').to.equal(250);
    });

    it('authenticates a client certificate over h2 as over HTTP/1.1', async () => {
      const { session } = await open('alice');
      const review = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' };
      const overH2 = await h2(session, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', review);
      expect(overH2.status).to.equal(201);
      const user = (overH2.body as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo;
      expect(user.username).to.equal('alice');
      expect(user.groups).to.include('devs');
      const overH1 = await request(`${cluster.urls[0]}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { ...cluster.credentialsFor('alice'), method: 'POST', body: review });
      expect((overH1.body as { status: unknown }).status).to.deep.equal((overH2.body as { status: unknown }).status);
    });

    it('delivers each of 100 watches on one session its own events', async () => {
      const { session } = await open();
      const ns = `h2-watch-${Date.now()}`;
      expect((await h2(session, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
      const n = 100;
      const seen: string[][] = Array.from({ length: n }, () => []);
      const streams = Array.from({ length: n }, (_x, i) => {
        const w = h2Watch(session, `/api/v1/namespaces/${ns}/configmaps?watch=true&fieldSelector=metadata.name%3Dcm-${i}`, (ev) => seen[i]!.push(`${ev.type} ${ev.object.metadata.name}`));
        return w.status.then((status) => ({ s: w.stream, status }));
      });
      const opened = await Promise.all(streams);
      expect(opened.map((o) => o.status)).to.deep.equal(Array(n).fill(200));
      const created = await Promise.all(Array.from({ length: n }, (_x, i) => h2(session, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { i: String(i) } })));
      expect(created.map((c) => c.status)).to.deep.equal(Array(n).fill(201));
      const deadline = Date.now() + 20_000;
      while (seen.some((e) => e.length === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(seen).to.deep.equal(Array.from({ length: n }, (_x, i) => [`ADDED cm-${i}`]));
      for (const o of opened) o.s.close();
      await h2(session, 'DELETE', `/api/v1/namespaces/${ns}`);
    });

    it('answers an oversized body 413 and resets only its stream', async () => {
      const { session } = await open();
      const big = { metadata: { name: 'too-big' }, data: { x: 'x'.repeat(4 * 1024 * 1024) } };
      const res = await h2(session, 'POST', '/api/v1/namespaces/default/configmaps', big);
      expect(res.status).to.equal(413);
      expect((res.body as { message: string }).message).to.equal('Request entity too large: limit is 3145728');
      expect((await h2(session, 'GET', '/api/v1/namespaces/default')).status, 'the session still serves').to.equal(200);
    });
  });
});
