// aescbc: a random 16-byte IV, then AES-CBC with PKCS#7 padding (upstream's layout).
// No authentication: the etcd key is not bound to the value.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TransformError, type ReadResult, type Transformer } from '../../transformer.js';
import { aesAlgorithm } from './keys.js';

const blockSize = 16;

export class CBCTransformer implements Transformer {
  private readonly algorithm: string;

  constructor(private readonly key: Buffer) {
    this.algorithm = `${aesAlgorithm(key)}-cbc`;
  }

  async transformFromStorage(data: Buffer): Promise<ReadResult> {
    if (data.length < blockSize) throw new TransformError('the stored data was shorter than the required size');
    const body = data.subarray(blockSize);
    if (body.length % blockSize !== 0) throw new TransformError('the stored data is not a multiple of the block size');
    if (body.length === 0) throw new TransformError('invalid PKCS7 data (empty or not padded)');
    try {
      const d = createDecipheriv(this.algorithm, this.key, data.subarray(0, blockSize));
      return { data: Buffer.concat([d.update(body), d.final()]), stale: false };
    } catch {
      throw new TransformError('invalid padding on input');
    }
  }

  async transformToStorage(data: Buffer): Promise<Buffer> {
    const iv = randomBytes(blockSize);
    const c = createCipheriv(this.algorithm, this.key, iv);
    return Buffer.concat([iv, c.update(data), c.final()]);
  }
}
