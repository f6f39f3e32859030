// The identity provider: values as they are. Listed first, it must not pass an
// encrypted value off as plain (that is how a cluster migrates off encryption: identity
// writes, the old provider behind it still reads), so it refuses anything with the
// encryption prefix.
import { TransformError, type ReadResult, type Transformer } from '../../transformer.js';

const encryptedPrefix = Buffer.from('k8s:enc:');

export const identityTransformer: Transformer = {
  async transformFromStorage(data: Buffer): Promise<ReadResult> {
    if (data.subarray(0, encryptedPrefix.length).equals(encryptedPrefix)) {
      throw new TransformError('identity transformer tried to read encrypted data');
    }
    return { data, stale: false };
  },
  async transformToStorage(data: Buffer): Promise<Buffer> {
    return data;
  },
};
