// Service-account keys from PEM files: any number of RSA or ECDSA public keys (also
// taken from private keys and certificates) to verify, one private key to sign. Key
// IDs and algorithms are derived as upstream does, so tokens and JWKS match it.
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

export function pemBlocks(pem: string): Array<{ type: string; text: string }> {
  return [...pem.matchAll(pemBlock)].map((m) => ({ type: m[1]!, text: m[0] }));
}

/** The public keys in a PEM bundle; non-key blocks (EC PARAMETERS) are skipped. */
export function parsePublicKeys(pem: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const b of pemBlocks(pem)) {
    let key: KeyObject;
    try {
      key = b.type === 'CERTIFICATE' ? new X509Certificate(b.text).publicKey : createPublicKey(b.text);
    } catch {
      continue;
    }
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec') keys.push(key);
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

export function readPublicKeys(file: string): KeyObject[] {
  try {
    return parsePublicKeys(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`failed to read service account key file ${JSON.stringify(file)}: ${(err as Error).message}`);
  }
}

export function parsePrivateKey(pem: string): KeyObject {
  for (const b of pemBlocks(pem)) {
    if (!/PRIVATE KEY$/.test(b.type)) continue;
    const key = createPrivateKey(b.text);
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec') return key;
    throw new Error(`unsupported key type ${String(key.asymmetricKeyType)}: want RSA or ECDSA`);
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

export function readPrivateKey(file: string): KeyObject {
  try {
    return parsePrivateKey(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`failed to parse service-account-issuer-key-file ${JSON.stringify(file)}: ${(err as Error).message}`);
  }
}

/** The JWS algorithm for a key: RS256 for RSA, ES256/384/512 by curve. */
export function algorithmFor(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  switch (key.asymmetricKeyDetails?.namedCurve) {
    case 'prime256v1': return 'ES256';
    case 'secp384r1': return 'ES384';
    case 'secp521r1': return 'ES512';
    default: throw new Error(`unsupported elliptic curve ${String(key.asymmetricKeyDetails?.namedCurve)}`);
  }
}

/** Upstream's key ID: base64url (unpadded) SHA-256 of the DER public key. */
export function keyID(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

export function publicKeyOf(key: KeyObject): KeyObject {
  return key.type === 'private' ? createPublicKey(key) : key;
}
