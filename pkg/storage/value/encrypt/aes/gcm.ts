// AES-GCM as upstream seals values: a 12-byte nonce, then the ciphertext and its 16-byte
// tag, with the etcd key as additional authenticated data (a value moved to another key
// fails to open). Used by aesgcm, by the KMS v1 envelope and, with a derived key, by KMS v2.
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import { TransformError, type ReadResult, type Transformer } from '../../transformer.js';
import { aesAlgorithm } from './keys.js';

const nonceSize = 12;
const tagSize = 16;

export function gcmOpen(key: Buffer, data: Buffer, aad: Buffer): Buffer {
  if (data.length < nonceSize + tagSize) throw new TransformError('the stored data was shorter than the required size');
  const d = createDecipheriv(`${aesAlgorithm(key)}-gcm` as CipherGCMTypes, key, data.subarray(0, nonceSize));
  d.setAAD(aad);
  d.setAuthTag(data.subarray(data.length - tagSize));
  try {
    return Buffer.concat([d.update(data.subarray(nonceSize, data.length - tagSize)), d.final()]);
  } catch {
    throw new TransformError('cipher: message authentication failed');
  }
}

export function gcmSeal(key: Buffer, data: Buffer, aad: Buffer, nonce: Buffer = randomBytes(nonceSize)): Buffer {
  const c = createCipheriv(`${aesAlgorithm(key)}-gcm` as CipherGCMTypes, key, nonce);
  c.setAAD(aad);
  const sealed = Buffer.concat([c.update(data), c.final()]);
  return Buffer.concat([nonce, sealed, c.getAuthTag()]);
}

export class GCMTransformer implements Transformer {
  constructor(private readonly key: Buffer) {
    aesAlgorithm(key);
  }

  async transformFromStorage(data: Buffer, key: Buffer): Promise<ReadResult> {
    return { data: gcmOpen(this.key, data, key), stale: false };
  }

  async transformToStorage(data: Buffer, key: Buffer): Promise<Buffer> {
    return gcmSeal(this.key, data, key);
  }
}
