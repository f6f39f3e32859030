// Key material for certificates: generation, PKCS#8 PEM export and re-import for signing.
// Keys travel as PEM strings so they can be written to disk, put in kubeconfigs and
// handed to Node's tls without conversion.
import { createPrivateKey } from 'node:crypto';
import { x509 } from './x509.js';

export type KeyAlgorithm = 'ECDSA' | 'RSA';

const rsaParams: RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const ecParams: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };

/** The algorithm WebCrypto needs to sign with a key of this kind. */
export function signingAlgorithm(alg: KeyAlgorithm): Algorithm | EcdsaParams {
  return alg === 'RSA' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
}

export async function generateKeys(alg: KeyAlgorithm): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(alg === 'RSA' ? rsaParams : ecParams, true, ['sign', 'verify']);
}

export async function privateKeyToPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey('pkcs8', key);
  return `${x509().PemConverter.encode(der, 'PRIVATE KEY').trimEnd()}\n`;
}

/** Which algorithm a PEM private key (PKCS#8, PKCS#1 or SEC1) uses. */
export function keyAlgorithmOf(pem: string): KeyAlgorithm {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType === 'rsa') return 'RSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ECDSA';
  throw new Error(`unsupported private key type ${key.asymmetricKeyType ?? 'unknown'}: want RSA or ECDSA P-256`);
}

/** Imports a PEM private key for signing certificates. */
export async function importSigningKey(pem: string): Promise<{ key: CryptoKey; alg: KeyAlgorithm }> {
  const alg = keyAlgorithmOf(pem);
  // Normalise any PEM flavour to PKCS#8 DER, which WebCrypto can import.
  const der = createPrivateKey(pem).export({ format: 'der', type: 'pkcs8' });
  const params = alg === 'RSA' ? { name: rsaParams.name, hash: 'SHA-256' } : ecParams;
  const key = await crypto.subtle.importKey('pkcs8', der, params, false, ['sign']);
  return { key, alg };
}
