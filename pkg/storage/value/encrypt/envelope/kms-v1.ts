// KMS v1 envelope encryption (deprecated upstream in 1.28, still served): every write
// makes a fresh 32-byte DEK, has the plugin encrypt it, and stores
// uint16(len(encrypted DEK)) | encrypted DEK | AES-GCM(DEK) of the value (AAD: the etcd
// key). Reads look the DEK up in an LRU cache by its encrypted form (cachesize, default
// 1000) and ask the plugin on a miss; a value written with AES-CBC (before 1.25) still
// reads, as stale.
import { randomBytes } from 'node:crypto';
import { TransformError, type ReadResult, type Transformer } from '../../transformer.js';
import { recordCacheMiss, recordDekCacheFill } from '../../metrics.js';
import { gcmOpen, gcmSeal } from '../aes/gcm.js';
import { CBCTransformer } from '../aes/cbc.js';
import { PluginClient } from './grpc.js';
import { v1 } from './wire.js';
import { LRU } from './lru.js';

const apiVersion = 'v1beta1';

export class KMSv1Service {
  readonly client: PluginClient;

  constructor(endpoint: string, readonly name: string, timeoutMs: number) {
    this.client = new PluginClient(endpoint, v1.service, name, timeoutMs);
  }

  async encrypt(plain: Buffer): Promise<Buffer> {
    const res = await this.client.call('Encrypt', v1.EncryptRequest, { version: apiVersion, plain }, v1.EncryptResponse);
    return res.cipher as Buffer;
  }

  async decrypt(cipher: Buffer): Promise<Buffer> {
    const res = await this.client.call('Decrypt', v1.DecryptRequest, { version: apiVersion, cipher }, v1.DecryptResponse);
    return res.plain as Buffer;
  }

  /** Upstream's v1 health probe: a round trip of "ping" through the plugin. */
  async check(): Promise<void> {
    let sealed: Buffer;
    try {
      sealed = await this.encrypt(Buffer.from('ping'));
    } catch (err) {
      throw new Error(`failed to perform encrypt section of the healthz check for KMS Provider ${this.name}, error: ${(err as Error).message}`);
    }
    try {
      await this.decrypt(sealed);
    } catch (err) {
      throw new Error(`failed to perform decrypt section of the healthz check for KMS Provider ${this.name}, error: ${(err as Error).message}`);
    }
  }
}

export class KMSv1Transformer implements Transformer {
  private readonly cache: LRU<string, Buffer> | undefined;

  constructor(private readonly service: KMSv1Service, private readonly cacheSize: number) {
    this.cache = cacheSize > 0 ? new LRU(cacheSize) : undefined;
  }

  async transformFromStorage(data: Buffer, key: Buffer): Promise<ReadResult> {
    if (data.length < 2) throw new TransformError('invalid data encountered by envelope transformer: failed to read uint16 length prefixed data');
    const keyLen = data.readUInt16BE(0);
    if (data.length < 2 + keyLen) throw new TransformError('invalid data encountered by envelope transformer: failed to read uint16 length prefixed data');
    const encKey = data.subarray(2, 2 + keyLen);
    const body = data.subarray(2 + keyLen);
    const dek = this.cache?.get(encKey.toString('base64')) ?? await this.fetchDek(encKey);
    try {
      return { data: gcmOpen(dek, body, key), stale: false };
    } catch (gcmErr) {
      try {
        return { data: (await new CBCTransformer(dek).transformFromStorage(body)).data, stale: true };
      } catch (cbcErr) {
        throw new TransformError(`[${(gcmErr as Error).message}, ${(cbcErr as Error).message}]`);
      }
    }
  }

  async transformToStorage(data: Buffer, key: Buffer): Promise<Buffer> {
    const dek = randomBytes(32);
    const encKey = await this.service.encrypt(dek);
    this.remember(encKey, dek);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(encKey.length);
    return Buffer.concat([len, encKey, gcmSeal(dek, data, key)]);
  }

  private async fetchDek(encKey: Buffer): Promise<Buffer> {
    if (this.cache) recordCacheMiss();
    const dek = await this.service.decrypt(encKey);
    this.remember(encKey, dek);
    return dek;
  }

  private remember(encKey: Buffer, dek: Buffer): void {
    if (!this.cache) return;
    this.cache.set(encKey.toString('base64'), dek);
    recordDekCacheFill(this.cache.size / this.cacheSize);
  }
}
