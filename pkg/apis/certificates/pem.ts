// PEM checks of CertificateSigningRequests as upstream's Go code does them (pem.Decode,
// x509.ParseCertificateRequest / ParseCertificates), with upstream's error texts.
import { X509Certificate, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { x509 } from '../../util/cert/x509.js';

interface PemBlock { type: string; headers: boolean; bytes: Buffer; rest: string }

/** Go's pem.Decode: the first well-formed block and the text after it. */
export function pemDecode(text: string): PemBlock | undefined {
  const re = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----[ \t]*\r?\n?/;
  const m = re.exec(text);
  if (!m) return undefined;
  const body = m[2];
  const headers = /^[^\n]*:/.test(body.split('\n')[0] ?? '');
  const b64 = body.split('\n').filter((l) => !l.includes(':')).join('').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*=*$/.test(b64)) return undefined;
  return { type: m[1], headers, bytes: Buffer.from(b64, 'base64'), rest: text.slice((m.index ?? 0) + m[0].length) };
}

/** Upstream's validateCSR: parse the PEM PKCS#10 request and check its signature; the error text or undefined. */
export function csrRequestError(pem: Buffer): string | undefined {
  const block = pemDecode(pem.toString('latin1'));
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  let req: X509.Pkcs10CertificateRequest;
  try {
    req = new (x509().Pkcs10CertificateRequest)(new Uint8Array(block.bytes));
  } catch {
    return 'asn1: structure error: tags don\'t match';
  }
  try {
    const key = createPublicKey({ key: Buffer.from(req.publicKey.rawData), format: 'der', type: 'spki' });
    const alg = req.signatureAlgorithm as { name: string; hash?: { name: string } };
    const hash = alg.hash ? alg.hash.name.replace('-', '').toLowerCase() : null;
    const ok = cryptoVerify(hash, firstElement(block.bytes), key, Buffer.from(req.signature));
    return ok ? undefined : (alg.name === 'ECDSA' ? 'x509: ECDSA verification failure' : 'crypto/rsa: verification error');
  } catch {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
}

/** Upstream's validateCertificate for status.certificate; the error text or undefined. */
export function certificateError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  let text = pem.toString('latin1');
  let blocks = 0;
  for (;;) {
    const block = pemDecode(text);
    if (!block) break;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found "${block.type}"`;
    if (block.headers) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
    text = block.rest;
  }
  if (blocks === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}

/** Go's %#v of a []byte. */
export function goBytes(b: Buffer): string {
  return `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`;
}

/** The DER of the first element inside a DER SEQUENCE (a CSR's certificationRequestInfo). */
function firstElement(der: Buffer): Buffer {
  const headerLength = (at: number): [number, number] => {
    const b = der[at + 1];
    if (b < 0x80) return [2, b];
    const n = b & 0x7f;
    let len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i];
    return [2 + n, len];
  };
  const [outer] = headerLength(0);
  const [h, len] = headerLength(outer);
  return der.subarray(outer, outer + h + len);
}
