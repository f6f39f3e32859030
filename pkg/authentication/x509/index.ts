// Client certificates: the presented chain must lead to a CA in the bundle, be within
// its validity period and be usable for client authentication. CN is the user, each O
// a group. The TLS server asks for a certificate without verifying it, so that each
// bundle (client CA, request-header CA) is checked here, on its own.
import { X509Certificate } from 'node:crypto';
import type { PeerCertificate, DetailedPeerCertificate } from 'node:tls';
import type { AuthRequest, AuthResult, Authenticator } from '../interfaces.js';
import type { UserInfo } from '../user.js';

const clientAuthUsage = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsage = '2.5.29.37.0';

export function parseCABundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/**
 * Parsed chains and verdicts, kept per presented certificate object (one per TLS
 * connection, see peerCertificateOf): upstream verifies once per handshake, not per
 * request, and parsing alone was a fifth of a cert-authenticated request's CPU.
 */
const parsedChains = new WeakMap<object, X509Certificate[]>();
const verdicts = new WeakMap<X509Certificate[], WeakMap<X509Certificate[], { from: number; until: number }>>();
/**
 * The same chain presented on another connection (a client's every connection, or a
 * thousand watches with one certificate), by the SHA-256 fingerprints of its certificates:
 * parsing a chain (OpenSSL 3 decodes each certificate anew) and verifying its signatures
 * cost more per connection than the handshake's signature, and the same bytes give the
 * same parse and, within the chain's validity, the same verdict.
 */
const chainsByFingerprints = new Map<string, X509Certificate[]>();
const maxRememberedChains = 1024;

/** The presented chain, leaf first, as X509Certificate objects. */
export function presentedChain(peer: PeerCertificate | undefined): X509Certificate[] {
  if (!peer) return [];
  let chain = parsedChains.get(peer);
  if (!chain) {
    const linked = linkedChain(peer);
    const key = linked.map((c) => c.fingerprint256).join('/');
    chain = chainsByFingerprints.get(key);
    if (!chain) {
      chain = linked.map((c) => new X509Certificate(c.raw));
      if (chainsByFingerprints.size >= maxRememberedChains) chainsByFingerprints.delete(chainsByFingerprints.keys().next().value!);
      chainsByFingerprints.set(key, chain);
    }
    parsedChains.set(peer, chain);
  }
  return chain;
}

/** The presented certificates from the leaf along their issuers, each once. */
function linkedChain(peer: PeerCertificate): DetailedPeerCertificate[] {
  const chain: DetailedPeerCertificate[] = [];
  let cur = peer as DetailedPeerCertificate | undefined;
  const seen = new Set<string>();
  while (cur && cur.raw && !seen.has(cur.fingerprint256)) {
    seen.add(cur.fingerprint256);
    chain.push(cur);
    cur = cur.issuerCertificate;
  }
  return chain;
}

/**
 * verifyChain, remembering a success for this chain and bundle for as long as every
 * certificate in the chain stays valid.
 */
export function verifyChainCached(chain: X509Certificate[], roots: X509Certificate[], now = new Date()): string | undefined {
  const t = now.getTime();
  const hit = verdicts.get(chain)?.get(roots);
  if (hit && t >= hit.from && t <= hit.until) return undefined;
  const problem = verifyChain(chain, roots, now);
  if (!problem) {
    const from = Math.max(...chain.map((c) => new Date(c.validFrom).getTime()));
    const until = Math.min(...chain.map((c) => new Date(c.validTo).getTime()));
    let byRoots = verdicts.get(chain);
    if (!byRoots) { byRoots = new WeakMap(); verdicts.set(chain, byRoots); }
    byRoots.set(roots, { from, until });
  }
  return problem;
}

/** Verifies leaf -> intermediates -> one of the roots, for client use; returns why not, or undefined. */
export function verifyChain(chain: X509Certificate[], roots: X509Certificate[], now = new Date()): string | undefined {
  if (chain.length === 0) return 'no certificate';
  for (const c of chain) {
    if (new Date(c.validFrom) > now || new Date(c.validTo) < now) {
      return `x509: certificate has expired or is not yet valid: current time ${now.toISOString().replace(/\.\d+Z$/, 'Z')} is outside ${c.validFrom} - ${c.validTo}`;
    }
  }
  const usages = chain[0]!.keyUsage;
  if (usages && usages.length > 0 && !usages.includes(clientAuthUsage) && !usages.includes(anyExtendedKeyUsage)) {
    return 'x509: certificate specifies an incompatible key usage';
  }
  let cur = chain[0]!;
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

/**
 * The presented chain judged against `roots`, and why it fails if it does. The leaf alone
 * first: when it is issued by one of the roots a chain exists whatever else was presented
 * (Go's verifier takes the other certificates as a pool to build from), and those need
 * not be read. Otherwise the whole presented chain decides, as before.
 */
export function judgePresented(req: AuthRequest, roots: X509Certificate[]): { chain: X509Certificate[]; problem?: string } {
  const first = presentedChain(req.peerCertificate);
  if (first.length === 0) return { chain: first };
  const problem = verifyChainCached(first, roots);
  if (!problem || !req.peerChain) return { chain: first, problem };
  const chain = presentedChain(req.peerChain());
  return { chain, problem: verifyChainCached(chain, roots) };
}

/** How upstream names a certificate in its verification errors. */
export function describeCertificate(cert: X509Certificate): string {
  return `SN=${BigInt(`0x${cert.serialNumber}`).toString()}, subject=${cert.subject.replace(/\n/g, ',')}`;
}

export class X509Authenticator implements Authenticator {
  readonly name = 'x509';
  constructor(private readonly roots: X509Certificate[]) {}

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const { chain, problem } = judgePresented(req, this.roots);
    if (chain.length === 0) return { decision: 'noOpinion' };
    if (problem) return { decision: 'error', message: `verifying certificate ${describeCertificate(chain[0]!)} failed: ${problem}` };
    const named = namedBy(chain[0]!);
    // Upstream's CommonNameUserConversion: a certificate without a CN names nobody.
    if (!named) return { decision: 'noOpinion' };
    return named;
  }
}

type Named = { decision: 'authenticated'; user: UserInfo };

/**
 * Who a verified leaf names, read once per parsed certificate (parsed chains are kept per
 * connection and per fingerprint, above): splitting its subject on every request was
 * work the same certificate always answers the same way. The answer is one frozen
 * object per certificate, not a copy per request: nothing downstream changes a user.
 */
const names = new WeakMap<X509Certificate, Named | null>();

function namedBy(leaf: X509Certificate): Named | null {
  let named = names.get(leaf);
  if (named === undefined) {
    const [cn] = subjectField(leaf, 'CN');
    named = cn ? Object.freeze({ decision: 'authenticated', user: Object.freeze({ name: cn, groups: Object.freeze(subjectField(leaf, 'O')) as string[] }) } as const) : null;
    names.set(leaf, named);
  }
  return named;
}
