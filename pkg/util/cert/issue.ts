// Certificate authorities and the certificates they sign.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type * as X509 from '@peculiar/x509';
import { x509 } from './x509.js';
import { generateKeys, importSigningKey, privateKeyToPem, signingAlgorithm, type KeyAlgorithm } from './keys.js';
import type { CertKeyPair, CertRequest } from './types.js';

const day = 24 * 60 * 60 * 1000;
// Backdated so that a client whose clock is slightly behind still accepts a fresh cert.
const clockSkew = 60 * 60 * 1000;

/** A positive 128-bit serial number, as Go's crypto/x509 users generate. */
function serialNumber(): string {
  const b = randomBytes(16);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return b.toString('hex');
}

/** Subject with each attribute in its own RDN, organizations before the common name (Go's order). */
function subjectName(cn: string, organizations: string[] = []): X509.JsonName {
  return [...organizations.map((o) => ({ O: [o] })), { CN: [cn] }];
}

export interface GenerateCAOptions {
  days?: number;
  keyAlgorithm?: KeyAlgorithm;
  organizations?: string[];
}

/** A self-signed certificate authority (10 years by default). */
export async function generateCA(cn: string, opts: GenerateCAOptions = {}): Promise<CertKeyPair> {
  const alg = opts.keyAlgorithm ?? 'ECDSA';
  const keys = await generateKeys(alg);
  const now = Date.now();
  const cert = await x509().X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: subjectName(cn, opts.organizations),
    notBefore: new Date(now - clockSkew),
    notAfter: new Date(now + (opts.days ?? 3650) * day),
    signingAlgorithm: signingAlgorithm(alg),
    keys,
    extensions: [
      new (x509().BasicConstraintsExtension)(true, undefined, true),
      new (x509().KeyUsagesExtension)(
        x509().KeyUsageFlags.digitalSignature | x509().KeyUsageFlags.keyEncipherment | x509().KeyUsageFlags.keyCertSign,
        true,
      ),
      await x509().SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: withNewline(cert.toString('pem')), key: await privateKeyToPem(keys.privateKey) };
}

/** A leaf certificate for a server or a client, signed by `ca`. */
export async function issueCertificate(ca: CertKeyPair, req: CertRequest): Promise<CertKeyPair> {
  const caCert = new (x509().X509Certificate)(firstPem(ca.cert));
  const signer = await importSigningKey(ca.key);
  const keys = await generateKeys(req.keyAlgorithm ?? 'ECDSA');
  const now = Date.now();
  const extensions: X509.Extension[] = [
    new (x509().BasicConstraintsExtension)(false, undefined, true),
    new (x509().KeyUsagesExtension)(x509().KeyUsageFlags.digitalSignature | x509().KeyUsageFlags.keyEncipherment, true),
    new (x509().ExtendedKeyUsageExtension)([
      ...(req.usage !== 'client' ? [x509().ExtendedKeyUsage.serverAuth] : []),
      ...(req.usage !== 'server' ? [x509().ExtendedKeyUsage.clientAuth] : []),
    ]),
    await x509().SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509().AuthorityKeyIdentifierExtension.create(caCert.publicKey),
  ];
  const sans = subjectAltNames(req.dnsNames ?? [], req.ipAddresses ?? []);
  if (sans.length > 0) extensions.push(new (x509().SubjectAlternativeNameExtension)(sans));
  const cert = await x509().X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: subjectName(req.cn, req.organizations),
    issuer: caCert.subjectName,
    notBefore: new Date(now - clockSkew),
    notAfter: new Date(now + (req.days ?? 365) * day),
    signingAlgorithm: signingAlgorithm(signer.alg),
    publicKey: keys.publicKey,
    signingKey: signer.key,
    extensions,
  });
  return { cert: withNewline(cert.toString('pem')), key: await privateKeyToPem(keys.privateKey) };
}

function subjectAltNames(dnsNames: string[], ipAddresses: string[]): X509.JsonGeneralNames {
  for (const ip of ipAddresses) {
    if (isIP(ip) === 0) throw new Error(`invalid IP address for certificate: ${JSON.stringify(ip)}`);
  }
  return [
    ...unique(dnsNames).map((value) => ({ type: 'dns' as const, value })),
    ...unique(ipAddresses).map((value) => ({ type: 'ip' as const, value })),
  ];
}

// Files of concatenated PEM blocks need each block to end its last line.
function withNewline(pem: string): string {
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs.filter((x) => x !== ''))];
}

/** The first certificate of a PEM bundle (a CA given as a chain signs with its leaf). */
export function firstPem(bundle: string): string {
  const end = '-----END CERTIFICATE-----';
  const i = bundle.indexOf(end);
  if (i < 0) throw new Error('no PEM certificate found');
  return bundle.slice(0, i + end.length) + '\n';
}
