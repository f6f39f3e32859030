// The warning upstream returns for a kubernetes.io/tls Secret whose key does not fit its
// certificate: the text of Go's tls.X509KeyPair error.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';

interface PemBlock { type: string; body: string }

/** PEM blocks in order; text outside blocks is ignored, as pem.Decode does. */
function pemBlocks(input: Buffer): PemBlock[] {
  const text = input.toString('latin1');
  const re = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  const out: PemBlock[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ type: m[1], body: m[0] });
  return out;
}

const goList = (items: string[]): string => `[${items.join(' ')}]`;

/** Returns Go's error text, or undefined when the pair is usable. */
export function x509KeyPairError(certPEM: Buffer, keyPEM: Buffer): string | undefined {
  const certBlocks = pemBlocks(certPEM);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0].endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  const keyBlocks = pemBlocks(keyPEM);
  const keyIdx = keyBlocks.findIndex((b) => b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY'));
  if (keyIdx < 0) {
    const skipped = keyBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') {
      return 'tls: found a certificate rather than a key in the PEM for the private key';
    }
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certs[0].body);
  } catch {
    return 'x509: malformed certificate';
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyBlocks[keyIdx].body);
  } catch {
    return 'tls: failed to parse private key';
  }
  if (cert.publicKey.asymmetricKeyType !== key.asymmetricKeyType) {
    return 'tls: private key type does not match public key type';
  }
  return cert.checkPrivateKey(key) ? undefined : 'tls: private key does not match public key';
}
