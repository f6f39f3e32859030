// TLS serving flags through a real replica: --tls-min-version refuses older clients,
// --tls-cipher-suites limits TLS 1.2 suites to the ones named (Go names), and
// --tls-sni-cert-key serves another certificate to clients that ask for its name.
import { expect } from 'chai';
import { connect, type TLSSocket, type ConnectionOptions } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplicas, type Cluster } from '../harness/index.js';
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
    cluster = await startReplicas(1, { extraArgs: [
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

  it('refuses unknown versions and suites at start-up with upstream words', () => {
    expect(() => parseOptions(['--tls-min-version=VersionTLS14'])).to.throw('unknown tls version "VersionTLS14"');
    expect(() => parseOptions(['--tls-cipher-suites=TLS_NOPE'])).to.throw("Cipher suite TLS_NOPE not supported or doesn't exist");
    expect(parseOptions([]).tls.minVersion).to.equal('TLSv1.2');
  });
});
