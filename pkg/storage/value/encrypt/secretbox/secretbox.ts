// secretbox: a random 24-byte nonce, then NaCl secretbox (XSalsa20-Poly1305) of the
// value, as upstream (golang.org/x/crypto/nacl/secretbox). Node's crypto has no XSalsa20,
// so the sealing is tweetnacl's (audited, dependency-free, byte-compatible with NaCl).
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { TransformError, type ReadResult, type Transformer } from '../../transformer.js';

const nonceSize = 24;

export class SecretboxTransformer implements Transformer {
  constructor(private readonly key: Buffer) {
    if (key.length !== nacl.secretbox.keyLength) throw new Error(`expected key size 32 for secretbox provider, got ${key.length}`);
  }

  async transformFromStorage(data: Buffer): Promise<ReadResult> {
    if (data.length < nonceSize + nacl.secretbox.overheadLength) throw new TransformError('the stored data was shorter than the required size');
    const opened = nacl.secretbox.open(data.subarray(nonceSize), data.subarray(0, nonceSize), this.key);
    // Upstream's message for a box that does not open.
    if (!opened) throw new TransformError('output array was not large enough for encryption');
    return { data: Buffer.from(opened), stale: false };
  }

  async transformToStorage(data: Buffer): Promise<Buffer> {
    const nonce = randomBytes(nonceSize);
    return Buffer.concat([nonce, nacl.secretbox(data, nonce, this.key)]);
  }
}
