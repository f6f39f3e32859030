// KMS v2 envelope encryption as upstream 1.28 writes it: one DEK per plugin key ID, made
// when the plugin's Status reports a key ID this replica has no DEK for, encrypted once by
// the plugin and reused for every write (a counter nonce keeps AES-GCM nonces unique).
// etcd holds the EncryptedObject message: the sealed value (AAD: the etcd key), the key
// ID, the encrypted DEK (or, from KMSv2KDF writers, a seed the DEK is derived from by
// HKDF-SHA256 with the value's first 32 bytes as info) and the plugin's annotations.
// Reads decrypt a DEK through the plugin once and cache it; a value under another key
// ID than the current one is stale.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { TransformError, type ReadResult, type Transformer } from '../../transformer.js';
import { recordCacheMiss, recordInvalidKeyIdFromStatus, recordKeyId, recordKeyIdFromStatus } from '../../metrics.js';
import { gcmOpen, gcmSeal } from '../aes/gcm.js';
import { PluginClient } from './grpc.js';
import { aesGcmKey, decodeMessage, encodeMessage, encryptedObject, hkdfSha256XNonceAesGcmSeed, v2 } from './wire.js';

/** A write DEK stays usable this long after the last healthy Status (upstream: 3 min). */
const writeDekMaxTtlMs = 3 * 60_000;
const keyIdMaxSize = 1024;
const encryptedDekSourceMaxSize = 1024;
const annotationsMaxSize = 32 * 1024;

interface WriteState {
  dek: Buffer;
  keyId: string;
  encryptedDek: Buffer;
  annotations: Map<string, Buffer>;
  expires: number;
  nonceCounter: bigint;
  noncePrefix: Buffer;
}

function validateKeyId(keyId: string): { code: string; error?: string } {
  if (keyId === '') return { code: 'empty', error: 'keyID is empty' };
  if (keyId.length > keyIdMaxSize) return { code: 'too_long', error: `keyID is ${keyId.length} bytes, which exceeds the max size of ${keyIdMaxSize}` };
  return { code: 'ok' };
}

/** HKDF-Expand (RFC 5869) of a 32-byte output: one HMAC block. */
function hkdfExpand32(seed: Buffer, info: Buffer): Buffer {
  return createHmac('sha256', seed).update(info).update(Buffer.from([1])).digest();
}

export class KMSv2Provider implements Transformer {
  readonly client: PluginClient;
  private state: WriteState | undefined;
  private readonly deks = new Map<string, { key: Buffer; used: number }>();

  constructor(endpoint: string, readonly name: string, timeoutMs: number) {
    this.client = new PluginClient(endpoint, v2.service, name, timeoutMs);
  }

  /**
   * Upstream's v2 probe: Status must say healthz "ok", version v2 (or v2beta1) and a valid
   * key ID; a key ID this replica has no DEK for makes a new DEK first.
   */
  async check(): Promise<void> {
    let status;
    try {
      status = await this.client.call('Status', v2.StatusRequest, {}, v2.StatusResponse);
    } catch (err) {
      throw new Error(`failed to perform status section of the healthz check for KMS Provider ${this.name}, error: ${(err as Error).message}`);
    }
    const errors: string[] = [];
    if (status.healthz !== 'ok') errors.push(`got unexpected healthz status: ${String(status.healthz)}`);
    if (status.version !== 'v2' && status.version !== 'v2beta1') errors.push(`expected KMSv2 API version v2, got ${String(status.version)}`);
    const keyId = String(status.key_id);
    const valid = validateKeyId(keyId);
    if (valid.error) {
      recordInvalidKeyIdFromStatus(this.name, valid.code);
      errors.push(`got invalid KMSv2 KeyID "${keyId}": ${valid.error}`);
    } else {
      recordKeyIdFromStatus(this.name, keyId);
      try {
        await this.rotateOnKeyIdChange(keyId);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    if (errors.length > 0) throw new Error(`kmsv2 Provider ${this.name} is not healthy, error: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);
  }

  private async rotateOnKeyIdChange(statusKeyId: string): Promise<void> {
    const expires = Date.now() + writeDekMaxTtlMs;
    if (this.state && this.state.keyId === statusKeyId) {
      this.state.expires = expires;
      return;
    }
    const uid = randomUUID();
    const dek = randomBytes(32);
    const res = await this.client.call('Encrypt', v2.EncryptRequest, { plaintext: dek, uid }, v2.EncryptResponse);
    const keyId = String(res.key_id);
    if (keyId !== statusKeyId) {
      throw new Error(`failed to rotate DEK uid="${uid}", statusKeyID="${statusKeyId}", encryptKeyID="${keyId}", stateKeyID="${this.state?.keyId ?? ''}"`);
    }
    const encryptedDek = res.ciphertext as Buffer;
    const annotations = res.annotations as Map<string, Buffer>;
    this.deks.set(cacheKey(aesGcmKey, encryptedDek, keyId, annotations), { key: dek, used: Date.now() });
    this.state = { dek, keyId, encryptedDek, annotations, expires, nonceCounter: 0n, noncePrefix: randomBytes(4) };
  }

  async transformFromStorage(data: Buffer, key: Buffer): Promise<ReadResult> {
    const obj = decodeMessage(encryptedObject, data);
    const type = obj.encryptedDEKSourceType as number;
    const sealed = obj.encryptedData as Buffer;
    const source = obj.encryptedDEKSource as Buffer;
    const keyId = obj.keyID as string;
    const annotations = obj.annotations as Map<string, Buffer>;
    validateEncryptedObject(type, sealed, source, keyId, annotations);
    const ck = cacheKey(type, source, keyId, annotations);
    let dek = this.deks.get(ck)?.key;
    if (!dek) {
      recordCacheMiss();
      try {
        const res = await this.client.call('Decrypt', v2.DecryptRequest, { ciphertext: source, uid: randomUUID(), key_id: keyId, annotations }, v2.DecryptResponse);
        dek = res.plaintext as Buffer;
      } catch (err) {
        throw new TransformError(`failed to decrypt DEK, error: ${(err as Error).message}`);
      }
      this.deks.set(ck, { key: dek, used: Date.now() });
    }
    recordKeyId('from_storage', this.name, keyId);
    const out = type === hkdfSha256XNonceAesGcmSeed
      ? gcmOpen(hkdfExpand32(dek, sealed.subarray(0, 32)), sealed.subarray(32), key)
      : gcmOpen(dek, sealed, key);
    return { data: out, stale: keyId !== this.state?.keyId || type !== aesGcmKey };
  }

  async transformToStorage(data: Buffer, key: Buffer): Promise<Buffer> {
    const s = this.state;
    if (!s) throw new TransformError('got unexpected nil transformer');
    if (Date.now() > s.expires) {
      throw new TransformError(`encryptedDEKSource with keyID hash "${keyIdHash(s.keyId)}" expired at ${new Date(s.expires).toISOString()} (current time is ${new Date().toISOString()})`);
    }
    // A nonce never repeats under one DEK: a random prefix per DEK, then a counter.
    const nonce = Buffer.alloc(12);
    s.noncePrefix.copy(nonce, 0);
    nonce.writeBigUInt64LE(++s.nonceCounter, 4);
    recordKeyId('to_storage', this.name, s.keyId);
    return encodeMessage(encryptedObject, {
      encryptedData: gcmSeal(s.dek, data, key, nonce), keyID: s.keyId, encryptedDEKSource: s.encryptedDek,
      annotations: s.annotations, encryptedDEKSourceType: aesGcmKey,
    });
  }

  close(): void {
    this.client.close();
  }
}

function keyIdHash(keyId: string): string {
  return `sha256:${createHash('sha256').update(keyId).digest('hex')}`;
}

function cacheKey(type: number, source: Buffer, keyId: string, annotations: Map<string, Buffer>): string {
  const h = createHash('sha256').update(String(type)).update('\0').update(source).update('\0').update(keyId);
  for (const k of [...annotations.keys()].sort()) h.update('\0').update(k).update('\0').update(annotations.get(k)!);
  return h.digest('base64');
}

function validateEncryptedObject(type: number, sealed: Buffer, source: Buffer, keyId: string, annotations: Map<string, Buffer>): void {
  if (type !== aesGcmKey && type !== hkdfSha256XNonceAesGcmSeed) throw new TransformError(`unknown encryptedDEKSourceType: ${type}`);
  if (sealed.length === 0) throw new TransformError('encrypted data is empty');
  if (source.length === 0) throw new TransformError('failed to validate encrypted DEK source: encrypted DEK source is empty');
  if (source.length > encryptedDekSourceMaxSize) {
    throw new TransformError(`failed to validate encrypted DEK source: encrypted DEK source is ${source.length} bytes, which exceeds the max size of ${encryptedDekSourceMaxSize}`);
  }
  const valid = validateKeyId(keyId);
  if (valid.error) throw new TransformError(`failed to validate key id: ${valid.error}`);
  let size = 0;
  for (const [k, v] of annotations) size += k.length + v.length;
  if (size > annotationsMaxSize) throw new TransformError(`failed to validate annotations: annotations exceeds max size of ${annotationsMaxSize}, got ${size}`);
}
