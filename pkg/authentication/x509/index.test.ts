import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import { generateCA, issueCertificate } from '../../util/cert/index.js';
import type { AuthRequest } from '../interfaces.js';
import { parseCABundle, presentedChain, verifyChainCached, X509Authenticator } from './index.js';

/** What a TLS socket's getPeerCertificate(true) hands over: one object per connection. */
function presented(...pems: string[]): DetailedPeerCertificate {
  const objs = pems.map((p) => new X509Certificate(p).toLegacyObject() as DetailedPeerCertificate);
  objs.forEach((o, i) => { o.issuerCertificate = objs[i + 1] ?? o; });
  return objs[0]!;
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
});
