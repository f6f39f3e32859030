// Encryption-at-rest metrics under upstream v1.28's names, labels and buckets
// (apiserver_storage_transformation_*, apiserver_envelope_encryption_*). They are created
// unregistered and join the server's registry once (registerEncryptionMetrics), so the
// storage layer does not depend on the server's metrics module.
import { createHash } from 'node:crypto';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

function exponential(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

const transformationDuration = new Histogram({
  name: 'apiserver_storage_transformation_duration_seconds',
  help: '[ALPHA] Latencies in seconds of value transformation operations.',
  labelNames: ['transformation_type', 'transformer_prefix'],
  buckets: exponential(5e-6, 2, 25),
  registers: [],
});
const transformationOperations = new Counter({
  name: 'apiserver_storage_transformation_operations_total',
  help: '[ALPHA] Total number of transformations.',
  labelNames: ['transformation_type', 'transformer_prefix', 'status'],
  registers: [],
});
const envelopeCacheMisses = new Counter({
  name: 'apiserver_storage_envelope_transformation_cache_misses_total',
  help: '[ALPHA] Total number of cache misses while accessing key decryption key(KEK).',
  registers: [],
});
const dekCacheFillPercent = new Gauge({
  name: 'apiserver_envelope_encryption_dek_cache_fill_percent',
  help: '[ALPHA] Percent of the cache slots currently occupied by cached DEKs.',
  registers: [],
});
const kmsOperationsLatency = new Histogram({
  name: 'apiserver_envelope_encryption_kms_operations_latency_seconds',
  help: '[ALPHA] KMS operation duration with gRPC error code status total.',
  labelNames: ['provider_name', 'method_name', 'grpc_status_code'],
  buckets: exponential(0.0001, 2, 20),
  registers: [],
});
const keyIdHashTotal = new Counter({
  name: 'apiserver_envelope_encryption_key_id_hash_total',
  help: '[ALPHA] Number of times a keyID is used split by transformation type and provider.',
  labelNames: ['transformation_type', 'provider_name', 'key_id_hash'],
  registers: [],
});
const keyIdHashLastTimestamp = new Gauge({
  name: 'apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds',
  help: '[ALPHA] The last time in seconds when a keyID was used.',
  labelNames: ['transformation_type', 'provider_name', 'key_id_hash'],
  registers: [],
});
const keyIdHashStatusLastTimestamp = new Gauge({
  name: 'apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds',
  help: '[ALPHA] The last time in seconds when a keyID was returned by the Status RPC call.',
  labelNames: ['provider_name', 'key_id_hash'],
  registers: [],
});
const invalidKeyIdFromStatus = new Counter({
  name: 'apiserver_envelope_encryption_invalid_key_id_from_status_total',
  help: '[ALPHA] Number of times an invalid keyID is returned by the Status RPC call split by error.',
  labelNames: ['provider_name', 'error'],
  registers: [],
});
const reloadSuccess = new Counter({
  name: 'apiserver_encryption_config_controller_automatic_reload_success_total',
  help: '[ALPHA] Total number of successful automatic reloads of encryption configuration.',
  registers: [],
});
const reloadFailures = new Counter({
  name: 'apiserver_encryption_config_controller_automatic_reload_failures_total',
  help: '[ALPHA] Total number of failed automatic reloads of encryption configuration.',
  registers: [],
});
const reloadLastTimestamp = new Gauge({
  name: 'apiserver_encryption_config_controller_automatic_reload_last_timestamp_seconds',
  help: '[ALPHA] Timestamp of the last successful or failed automatic reload of encryption configuration.',
  labelNames: ['status'],
  registers: [],
});

const all = [transformationDuration, transformationOperations, envelopeCacheMisses, dekCacheFillPercent, kmsOperationsLatency,
  keyIdHashTotal, keyIdHashLastTimestamp, keyIdHashStatusLastTimestamp, invalidKeyIdFromStatus, reloadSuccess, reloadFailures, reloadLastTimestamp];
const registered = new WeakSet<Registry>();

export function registerEncryptionMetrics(registry: Registry): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  for (const m of all) registry.registerMetric(m as Parameters<Registry['registerMetric']>[0]);
}

/** Upstream's status label: "OK", a gRPC code name, or "unknown-non-grpc". */
export function recordTransformation(type: 'from_storage' | 'to_storage', prefix: string, seconds: number, error?: string, grpcCode?: string): void {
  transformationOperations.inc({ transformation_type: type, transformer_prefix: prefix, status: error === undefined ? 'OK' : (grpcCode ?? 'unknown-non-grpc') });
  if (error === undefined) transformationDuration.observe({ transformation_type: type, transformer_prefix: prefix }, seconds);
}

export function recordCacheMiss(): void {
  envelopeCacheMisses.inc();
}

export function recordDekCacheFill(fraction: number): void {
  dekCacheFillPercent.set(fraction);
}

export function recordKmsLatency(provider: string, method: string, seconds: number, code: string): void {
  kmsOperationsLatency.observe({ provider_name: provider, method_name: method, grpc_status_code: code }, seconds);
}

function keyIdHash(keyId: string): string {
  return keyId ? `sha256:${createHash('sha256').update(keyId).digest('hex')}` : '';
}

export function recordKeyId(type: 'from_storage' | 'to_storage', provider: string, keyId: string): void {
  const labels = { transformation_type: type, provider_name: provider, key_id_hash: keyIdHash(keyId) };
  keyIdHashTotal.inc(labels);
  keyIdHashLastTimestamp.set(labels, Date.now() / 1000);
}

export function recordKeyIdFromStatus(provider: string, keyId: string): void {
  keyIdHashStatusLastTimestamp.set({ provider_name: provider, key_id_hash: keyIdHash(keyId) }, Date.now() / 1000);
}

export function recordInvalidKeyIdFromStatus(provider: string, error: string): void {
  invalidKeyIdFromStatus.inc({ provider_name: provider, error });
}

export function recordReload(ok: boolean): void {
  (ok ? reloadSuccess : reloadFailures).inc();
  reloadLastTimestamp.set({ status: ok ? 'success' : 'failure' }, Date.now() / 1000);
}
