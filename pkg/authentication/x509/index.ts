// Client certificates: the presented chain must lead to a CA in the bundle and be
// within its validity period. CN is the user, each O a group.
import { X509Certificate } from 'node:crypto';
import type { PeerCertificate, DetailedPeerCertificate } from 'node:tls';
import type { AuthRequest, AuthResult, Authenticator } from '../interfaces.js';

export function parseCABundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/** The presented chain, leaf first, as X509Certificate objects. */
export function presentedChain(peer: PeerCertificate | undefined): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let cur = peer as DetailedPeerCertificate | undefined;
  const seen = new Set<string>();
  while (cur && cur.raw && !seen.has(cur.fingerprint256)) {
    seen.add(cur.fingerprint256);
    chain.push(new X509Certificate(cur.raw));
    cur = cur.issuerCertificate;
  }
  return chain;
}

/** Verifies leaf -> intermediates -> one of the roots; returns why not, or undefined. */
export function verifyChain(chain: X509Certificate[], roots: X509Certificate[], now = new Date()): string | undefined {
  if (chain.length === 0) return 'no certificate';
  for (const c of chain) {
    if (new Date(c.validFrom) > now || new Date(c.validTo) < now) {
      return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is outside ${c.validFrom} - ${c.validTo}`;
    }
  }
  let cur = chain[0];
  const intermediates = chain.slice(1);
  for (let depth = 0; depth < 10; depth++) {
    const root = roots.find((r) => cur.checkIssued(r) && cur.verify(r.publicKey));
    if (root) return undefined;
    const next = intermediates.find((i) => i.ca && cur.checkIssued(i) && cur.verify(i.publicKey));
    if (!next) break;
    cur = next;
  }
  return 'x509: certificate signed by unknown authority';
}

export function subjectField(cert: X509Certificate, key: string): string[] {
  return cert.subject.split('\n').filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
}

export class X509Authenticator implements Authenticator {
  readonly name = 'x509';
  constructor(private readonly roots: X509Certificate[]) {}

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const chain = presentedChain(req.peerCertificate);
    if (chain.length === 0) return { decision: 'noOpinion' };
    const problem = verifyChain(chain, this.roots);
    if (problem) return { decision: 'error', message: `verifying certificate ${chain[0].subject.replace(/\n/g, ',')} failed: ${problem}` };
    const [cn] = subjectField(chain[0], 'CN');
    if (!cn) return { decision: 'error', message: 'x509: certificate has no common name' };
    return { decision: 'authenticated', user: { name: cn, groups: subjectField(chain[0], 'O') } };
  }
}
