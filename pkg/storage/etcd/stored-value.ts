// The one place values pass the encryption-at-rest transformer on their way to and from
// etcd (keyed by the etcd key, which aesgcm and KMS authenticate). Without a transformer
// values are the codec's bytes as they are. A value no provider can read is undecodable,
// with the provider's reason, like any other value no codec can read.
import type { KubeObject } from '../../runtime/object.js';
import type { ValueTransformer } from '../value/encryption-at-rest.js';
import { decodeFromStorage, UndecodableValueError } from './codec.js';

export interface StoredKV { key: Buffer; value: Buffer }

/**
 * The object, its codec bytes (before encryption: what a no-op update is compared with),
 * and whether its bytes were written with a provider or key that no longer writes.
 */
export async function readStored(t: ValueTransformer | undefined, kv: StoredKV, modRevision: string | number): Promise<{ obj: KubeObject; data: Buffer; stale: boolean }> {
  if (!t) return { obj: decodeFromStorage(kv.value, modRevision), data: kv.value, stale: false };
  let plain;
  try {
    plain = await t.fromStorage(kv.key, kv.value);
  } catch (err) {
    throw new UndecodableValueError((err as Error).message);
  }
  return { obj: decodeFromStorage(plain.data, modRevision), data: plain.data, stale: plain.stale };
}

export async function decodeStored(t: ValueTransformer | undefined, kv: StoredKV, modRevision: string | number): Promise<KubeObject> {
  return t ? (await readStored(t, kv, modRevision)).obj : decodeFromStorage(kv.value, modRevision);
}

/** Codec bytes as they go to etcd. */
export async function sealStored(t: ValueTransformer | undefined, key: Buffer, bytes: Buffer): Promise<Buffer> {
  return t ? t.toStorage(key, bytes) : bytes;
}
