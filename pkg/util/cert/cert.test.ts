import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { generateCA, issueCertificate, selfSignedServingCert, writeKeyPair, type CertKeyPair } from './index.js';

function pems(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

interface Handshake { serverSawCN: string | undefined; clientAuthorized: boolean; serverAuthorized: boolean }

/** A real mutual-TLS handshake between a server and a client using the given material. */
async function handshake(server: CertKeyPair, client: CertKeyPair | undefined, trust: string, servername: string): Promise<Handshake> {
  const srv = tls.createServer({ cert: server.cert, key: server.key, ca: trust, requestCert: true, rejectUnauthorized: false });
  const seen = new Promise<{ cn: string | undefined; authorized: boolean }>((resolve) => {
    srv.on('secureConnection', (s) => {
      const cn = s.getPeerCertificate().subject?.CN;
      resolve({ cn: Array.isArray(cn) ? cn[0] : cn, authorized: s.authorized });
      s.end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  try {
    const sock = tls.connect({ host: '127.0.0.1', port, servername, ca: trust, cert: client?.cert, key: client?.key });
    await new Promise<void>((resolve, reject) => { sock.once('secureConnect', resolve); sock.once('error', reject); });
    const serverAuthorized = sock.authorized;
    const s = await seen;
    sock.destroy();
    return { serverSawCN: s.cn, clientAuthorized: s.authorized, serverAuthorized };
  } finally {
    srv.close();
  }
}

describe('pkg/util/cert', function () {
  this.timeout(20000);

  for (const keyAlgorithm of ['ECDSA', 'RSA'] as const) {
    describe(`${keyAlgorithm} keys`, () => {
      let ca: CertKeyPair;
      before(async () => { ca = await generateCA('test-ca', { keyAlgorithm }); });

      it('makes a self-signed CA', () => {
        const x = new X509Certificate(ca.cert);
        expect(x.ca).to.equal(true);
        expect(x.subject).to.equal('CN=test-ca');
        expect(x.issuer).to.equal('CN=test-ca');
        expect(x.verify(x.publicKey)).to.equal(true);
        expect(ca.key).to.match(/^-----BEGIN PRIVATE KEY-----\n/);
        expect(x.publicKey.asymmetricKeyType).to.equal(keyAlgorithm === 'RSA' ? 'rsa' : 'ec');
      });

      it('issues a serving cert with SANs that chains to the CA', async () => {
        const srv = await issueCertificate(ca, {
          cn: 'kube-apiserver', usage: 'server', dnsNames: ['localhost', 'kubernetes.default'], ipAddresses: ['127.0.0.1', '::1'], keyAlgorithm,
        });
        const x = new X509Certificate(srv.cert);
        const caX = new X509Certificate(ca.cert);
        expect(x.ca).to.equal(false);
        expect(x.checkIssued(caX)).to.equal(true);
        expect(x.verify(caX.publicKey)).to.equal(true);
        expect(x.subject).to.equal('CN=kube-apiserver');
        expect(x.checkHost('localhost')).to.equal('localhost');
        expect(x.checkHost('kubernetes.default')).to.equal('kubernetes.default');
        expect(x.checkIP('127.0.0.1')).to.equal('127.0.0.1');
        expect(x.subjectAltName).to.include('IP Address:0:0:0:0:0:0:0:1');
        expect(x.checkHost('example.com')).to.equal(undefined);
        expect(x.keyUsage).to.deep.equal(['1.3.6.1.5.5.7.3.1']);
        expect(new Date(x.validTo).getTime() - Date.now()).to.be.within(364 * 86400e3, 366 * 86400e3);
      });

      it('issues a client cert whose subject carries CN and organizations', async () => {
        const c = await issueCertificate(ca, { cn: 'admin', organizations: ['system:masters', 'devs'], usage: 'client', days: 2 });
        const x = new X509Certificate(c.cert);
        expect(x.subject).to.equal('O=system:masters\nO=devs\nCN=admin');
        expect(x.keyUsage).to.deep.equal(['1.3.6.1.5.5.7.3.2']);
        expect(x.verify(new X509Certificate(ca.cert).publicKey)).to.equal(true);
        expect(new Date(x.validTo).getTime() - Date.now()).to.be.within(1 * 86400e3, 2 * 86400e3);
      });

      it('makes material Node tls accepts for mutual TLS', async () => {
        const srv = await issueCertificate(ca, { cn: 'server', usage: 'server', dnsNames: ['localhost'], keyAlgorithm });
        const cli = await issueCertificate(ca, { cn: 'alice', usage: 'client', keyAlgorithm });
        const h = await handshake(srv, cli, ca.cert, 'localhost');
        expect(h).to.deep.equal({ serverSawCN: 'alice', clientAuthorized: true, serverAuthorized: true });
      });
    });
  }

  it('rejects a client cert from another CA and a server name not in the SANs', async () => {
    const ca = await generateCA('ca-1');
    const other = await generateCA('ca-2');
    const srv = await issueCertificate(ca, { cn: 's', usage: 'server', dnsNames: ['localhost'] });
    const stranger = await issueCertificate(other, { cn: 'mallory', usage: 'client' });
    const h = await handshake(srv, stranger, ca.cert, 'localhost');
    expect(h.clientAuthorized).to.equal(false);
    let err: unknown;
    try { await handshake(srv, undefined, ca.cert, 'example.com'); } catch (e) { err = e; }
    expect(String(err)).to.match(/altnames|Hostname/i);
  });

  it('refuses an invalid IP address', async () => {
    const ca = await generateCA('ca');
    let err: unknown;
    try { await issueCertificate(ca, { cn: 'x', usage: 'server', ipAddresses: ['localhost'] }); } catch (e) { err = e; }
    expect(String(err)).to.contain('invalid IP address');
  });

  it('selfSignedServingCert follows kube-apiserver --cert-dir naming and chaining', async () => {
    const s = await selfSignedServingCert('10.0.0.1', ['10.96.0.1'], ['kubernetes.default', 'localhost']);
    const chain = pems(s.cert);
    expect(chain).to.have.length(2);
    const leaf = new X509Certificate(chain[0]!);
    const ca = new X509Certificate(chain[1]!);
    expect(leaf.subject).to.match(/^CN=10\.0\.0\.1@\d+$/);
    expect(ca.subject).to.match(/^CN=10\.0\.0\.1-ca@\d+$/);
    expect(ca.raw.equals(new X509Certificate(s.ca.cert).raw)).to.equal(true);
    expect(leaf.verify(ca.publicKey)).to.equal(true);
    expect(leaf.checkIP('10.0.0.1')).to.equal('10.0.0.1');
    expect(leaf.checkIP('10.96.0.1')).to.equal('10.96.0.1');
    expect(leaf.checkHost('localhost')).to.equal('localhost');
    expect(leaf.publicKey.asymmetricKeyType).to.equal('rsa');
    const h = await handshake(s, undefined, s.ca.cert, 'kubernetes.default');
    expect(h.serverAuthorized).to.equal(true);
  });

  it('selfSignedServingCert puts a DNS host in the DNS SANs', async () => {
    const s = await selfSignedServingCert('apiserver.example', [], []);
    const leaf = new X509Certificate(pems(s.cert)[0]!);
    expect(leaf.subjectAltName).to.equal('DNS:apiserver.example');
  });

  it('writeKeyPair writes <name>.crt and a private <name>.key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cert-test-'));
    try {
      const pair = await generateCA('w');
      const files = await writeKeyPair(join(dir, 'sub'), 'apiserver', pair);
      expect(files).to.deep.equal({ certFile: join(dir, 'sub', 'apiserver.crt'), keyFile: join(dir, 'sub', 'apiserver.key') });
      expect(await readFile(files.certFile, 'utf8')).to.equal(pair.cert);
      expect(await readFile(files.keyFile, 'utf8')).to.equal(pair.key);
      expect((await stat(files.keyFile)).mode & 0o777).to.equal(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
