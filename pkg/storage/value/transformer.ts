// How values are changed on their way to and from etcd (encryption at rest), as
// upstream's value.Transformer: the etcd key is the context (aesgcm and the KMS
// envelopes authenticate it, so a value copied to another key does not decrypt there).
// A resource's providers are tried by prefix; the first one writes, every one reads,
// and a value read by any but the first is stale (the next write re-encrypts it).
import { recordTransformation } from './metrics.js';

export interface ReadResult {
  data: Buffer;
  /** Read with a provider or key that is no longer the one that writes. */
  stale: boolean;
}

export interface Transformer {
  transformFromStorage(data: Buffer, key: Buffer): Promise<ReadResult>;
  transformToStorage(data: Buffer, key: Buffer): Promise<Buffer>;
}

/** Upstream's error type for values no provider can read; the message reaches the client. */
export class TransformError extends Error {}

export interface PrefixTransformer {
  /** `k8s:enc:aescbc:v1:`, `key1:`, ...; empty for identity. */
  prefix: Buffer;
  transformer: Transformer;
}

/**
 * Tries the transformers whose prefix the value has, in order; the first transformer
 * writes. `metricPrefix` says whether transformations are counted here (the provider
 * level) or not (the key level inside a provider).
 */
export class PrefixTransformers implements Transformer {
  constructor(private readonly list: PrefixTransformer[], private readonly noMatch: string, private readonly countMetrics = false) {
    if (list.length === 0) throw new Error('at least one transformer is required');
  }

  async transformFromStorage(data: Buffer, key: Buffer): Promise<ReadResult> {
    const start = process.hrtime.bigint();
    const errors: string[] = [];
    for (let i = 0; i < this.list.length; i++) {
      const { prefix, transformer } = this.list[i];
      if (!startsWith(data, prefix)) continue;
      let result: ReadResult;
      try {
        result = await transformer.transformFromStorage(data.subarray(prefix.length), key);
      } catch (err) {
        // An identity provider listed first refuses encrypted values; the next provider
        // gets its turn (how a cluster migrates away from encryption).
        if (prefix.length === 0) continue;
        this.record('from_storage', prefix, start, err);
        errors.push((err as Error).message);
        continue;
      }
      this.record('from_storage', prefix, start);
      return { data: result.data, stale: result.stale || i !== 0 };
    }
    if (errors.length > 0) throw new TransformError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    if (this.countMetrics) recordTransformation('from_storage', 'unknown', seconds(start), this.noMatch);
    throw new TransformError(this.noMatch);
  }

  async transformToStorage(data: Buffer, key: Buffer): Promise<Buffer> {
    const start = process.hrtime.bigint();
    const { prefix, transformer } = this.list[0];
    try {
      const out = await transformer.transformToStorage(data, key);
      this.record('to_storage', prefix, start);
      return prefix.length === 0 ? out : Buffer.concat([prefix, out]);
    } catch (err) {
      this.record('to_storage', prefix, start, err);
      throw err;
    }
  }

  private record(type: 'from_storage' | 'to_storage', prefix: Buffer, start: bigint, err?: unknown): void {
    if (!this.countMetrics) return;
    recordTransformation(type, prefix.length === 0 ? 'identity' : prefix.toString(), seconds(start), err === undefined ? undefined : String((err as Error).message ?? err));
  }
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function startsWith(data: Buffer, prefix: Buffer): boolean {
  return data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);
}
