import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import { generateCA, issueCertificate } from '../../util/cert/index.js';
import { generateKeys, importSigningKey, privateKeyToPem, signingAlgorithm } from '../../util/cert/keys.js';
import type { CertKeyPair } from '../../util/cert/types.js';
import { x509 } from '../../util/cert/x509.js';
import type { AuthRequest } from '../interfaces.js';
import { parseCABundle, presentedChain, verifyChainCached, X509Authenticator } from './index.js';

/** What a TLS socket's getPeerCertificate(true) hands over: one object per connection. */
function presented(...pems: string[]): DetailedPeerCertificate {
  const objs = pems.map((p) => new X509Certificate(p).toLegacyObject() as DetailedPeerCertificate);
  objs.forEach((o, i) => { o.issuerCertificate = objs[i + 1] ?? o; });
  return objs[0]!;
}

/** A CA signed by `root`, for client certificates one step below it. */
async function intermediateOf(root: CertKeyPair, cn: string): Promise<CertKeyPair> {
  const rootCert = new (x509().X509Certificate)(root.cert);
  const signer = await importSigningKey(root.key);
  const keys = await generateKeys('ECDSA');
  const cert = await x509().X509CertificateGenerator.create({
    serialNumber: '01', subject: `CN=${cn}`, issuer: rootCert.subject,
    notBefore: new Date(Date.now() - 3_600_000), notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: signingAlgorithm(signer.alg), publicKey: keys.publicKey, signingKey: signer.key,
    extensions: [
      new (x509().BasicConstraintsExtension)(true, undefined, true),
      new (x509().KeyUsagesExtension)(x509().KeyUsageFlags.keyCertSign, true),
      await x509().SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509().AuthorityKeyIdentifierExtension.create(rootCert.publicKey),
    ],
  });
  return { cert: `${cert.toString('pem')}\n`, key: await privateKeyToPem(keys.privateKey) };
}

describe('authentication/x509', () => {
  it('parses a chain presented again on another connection once, and still judges its validity by the clock', async () => {
    const ca = await generateCA('x509-test-ca');
    const alice = await issueCertificate(ca, { cn: 'alice', usage: 'client' });
    const bob = await issueCertificate(ca, { cn: 'bob', usage: 'client' });
    const roots = parseCABundle(ca.cert);

    const first = presentedChain(presented(alice.cert, ca.cert));
    const again = presentedChain(presented(alice.cert, ca.cert));
    expect(first.map((c) => c.subject)).to.deep.equal(['CN=alice', 'CN=x509-test-ca']);
    expect(again).to.equal(first);
    const other = presentedChain(presented(bob.cert, ca.cert));
    expect(other).to.not.equal(first);
    expect(other[0]!.subject).to.equal('CN=bob');
    // A leaf presented without its issuer is another chain.
    expect(presentedChain(presented(alice.cert))).to.have.length(1);

    expect(verifyChainCached(again, roots)).to.equal(undefined);
    const later = new Date(new Date(first[0]!.validTo).getTime() + 1000);
    expect(verifyChainCached(first, roots, later)).to.match(/^x509: certificate has expired or is not yet valid/);
    expect(verifyChainCached(first, parseCABundle((await generateCA('another-ca')).cert))).to.equal('x509: certificate signed by unknown authority');
  });

  it('judges a leaf issued by a CA of the bundle without reading the other certificates presented, and reads them otherwise', async () => {
    const ca = await generateCA('x509-judge-ca');
    const other = await generateCA('x509-other-ca');
    const alice = await issueCertificate(ca, { cn: 'alice', organizations: ['devs'], usage: 'client' });
    const stranger = await issueCertificate(other, { cn: 'stranger', usage: 'client' });
    let reads = 0;
    const req = (leaf: string, ...rest: string[]): AuthRequest => ({
      headers: {}, peerCertificate: presented(leaf), peerChain: () => { reads++; return presented(leaf, ...rest); },
    });
    const authn = new X509Authenticator(parseCABundle(ca.cert));
    expect(await authn.authenticate(req(alice.cert, ca.cert))).to.deep.equal({ decision: 'authenticated', user: { name: 'alice', groups: ['devs'] } });
    expect(reads).to.equal(0);
    const refused = await authn.authenticate(req(stranger.cert, other.cert));
    expect(refused.decision).to.equal('error');
    expect((refused as { message: string }).message).to.match(/^verifying certificate SN=\d+, subject=CN=stranger failed: x509: certificate signed by unknown authority$/);
    expect(reads).to.equal(1);
  });

  it('authenticates a leaf issued by an intermediate CA only with the intermediate presented', async () => {
    const root = await generateCA('x509-root-ca');
    const middle = await intermediateOf(root, 'x509-intermediate-ca');
    const carol = await issueCertificate(middle, { cn: 'carol', usage: 'client' });
    let reads = 0;
    const req = (...rest: string[]): AuthRequest => ({
      headers: {}, peerCertificate: presented(carol.cert), peerChain: () => { reads++; return presented(carol.cert, ...rest); },
    });
    const authn = new X509Authenticator(parseCABundle(root.cert));
    expect(await authn.authenticate(req(middle.cert))).to.deep.equal({ decision: 'authenticated', user: { name: 'carol', groups: [] } });
    expect(reads).to.equal(1);
    const alone = await authn.authenticate(req());
    expect((alone as { message?: string }).message).to.match(/x509: certificate signed by unknown authority$/);
  });
});
