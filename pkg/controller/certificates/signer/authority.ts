// A certificate authority signing approved requests, as upstream's authority.Sign with
// its PermissiveSigningPolicy: the request's subject, names and key; usages from the
// CSR; backdated 5 minutes; never outliving the CA.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type * as X509 from '@peculiar/x509';
import { x509 } from '../../../util/cert/x509.js';
import { firstPem } from '../../../util/cert/index.js';
import { importSigningKey, signingAlgorithm } from '../../../util/cert/keys.js';
import type { ParsedRequest } from '../../../apis/certificates/csr.js';

const minute = 60_000;
/** Upstream's backdate: less than the shortest lifetime a request may ask for. */
export const backdateMs = 5 * minute;
/** Below this lifetime the backdate is not taken out of it (5 minutes is ~1% of 8 hours). */
const shortMs = 8 * 60 * minute;
/** Upstream's lower bound on a requested duration (twice the backdate). */
const minDurationMs = 10 * minute;

function keyUsageBits(): Record<string, number> {
  const flags = x509().KeyUsageFlags;
  return {
    'signing': flags.digitalSignature,
    'digital signature': flags.digitalSignature,
    'content commitment': flags.nonRepudiation,
    'key encipherment': flags.keyEncipherment,
    'key agreement': flags.keyAgreement,
    'data encipherment': flags.dataEncipherment,
    'cert sign': flags.keyCertSign,
    'crl sign': flags.cRLSign,
    'encipher only': flags.encipherOnly,
    'decipher only': flags.decipherOnly,
  };
}

const extKeyUsageOIDs: Record<string, string> = {
  'any': '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  'timestamping': '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

/** Upstream's duration(): the signing duration, or the requested one when shorter (at least 10 minutes). */
export function certificateTTL(maxMs: number, expirationSeconds: unknown): number {
  if (typeof expirationSeconds !== 'number') return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  return Math.max(requested, minDurationMs);
}

export class CertificateAuthority {
  constructor(private readonly certFile: string, private readonly keyFile: string) {}

  /** Reads the files on every signature, so a rotated CA is picked up as upstream's dynamic CA. */
  private async load(): Promise<{ cert: X509.X509Certificate; key: CryptoKey; alg: 'ECDSA' | 'RSA' }> {
    const [certPem, keyPem] = await Promise.all([readFile(this.certFile, 'utf8'), readFile(this.keyFile, 'utf8')]);
    const { key, alg } = await importSigningKey(keyPem);
    return { cert: new (x509().X509Certificate)(firstPem(certPem)), key, alg };
  }

  /** A PEM certificate for the request; throws (to retry) when the CA cannot sign. */
  async sign(req: ParsedRequest, usages: string[], ttlMs: number, now = Date.now()): Promise<string> {
    if (!(await req.raw.verify())) throw new Error('unable to verify certificate request signature');
    const ca = await this.load();
    const caNotAfter = ca.cert.notAfter.getTime();
    const notBefore = now - backdateMs;
    let notAfter = ttlMs < shortMs ? now + ttlMs : now + ttlMs - backdateMs;
    if (notAfter >= caNotAfter) notAfter = caNotAfter;
    if (notBefore >= caNotAfter) throw new Error(`the signer has expired: NotAfter=${ca.cert.notAfter.toISOString()}`);
    if (now >= caNotAfter) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${ca.cert.notAfter.toISOString()}`);

    let bits = 0;
    const ekus: string[] = [];
    const usageBits = keyUsageBits();
    for (const u of usages) {
      if (usageBits[u] !== undefined) bits |= usageBits[u];
      else if (extKeyUsageOIDs[u]) ekus.push(extKeyUsageOIDs[u]);
      else throw new Error(`unrecognized usage: ${u}`);
    }
    const extensions: X509.Extension[] = [];
    if (bits !== 0) extensions.push(new (x509().KeyUsagesExtension)(bits, true));
    if (ekus.length > 0) extensions.push(new (x509().ExtendedKeyUsageExtension)(ekus));
    extensions.push(new (x509().BasicConstraintsExtension)(false, undefined, true));
    const caKeyId = ca.cert.getExtension(x509().SubjectKeyIdentifierExtension);
    if (caKeyId) extensions.push(new (x509().AuthorityKeyIdentifierExtension)(caKeyId.keyId));
    const names: X509.JsonGeneralNames = [
      ...req.dnsNames.map((value) => ({ type: 'dns' as const, value })),
      ...req.emailAddresses.map((value) => ({ type: 'email' as const, value })),
      ...req.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
      ...req.uris.map((value) => ({ type: 'url' as const, value })),
    ];
    if (names.length > 0) extensions.push(new (x509().SubjectAlternativeNameExtension)(names));

    const cert = await x509().X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject: req.raw.subjectName,
      issuer: ca.cert.subjectName,
      notBefore: new Date(notBefore),
      notAfter: new Date(notAfter),
      signingAlgorithm: signingAlgorithm(ca.alg),
      publicKey: req.raw.publicKey,
      signingKey: ca.key,
      extensions,
    });
    const pem = cert.toString('pem');
    return pem.endsWith('\n') ? pem : `${pem}\n`;
  }
}

/** A positive random serial below 2^128, as upstream draws it. */
function serialNumber(): string {
  const b = randomBytes(16);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return b.toString('hex');
}
