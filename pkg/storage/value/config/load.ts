// Reads and validates --encryption-provider-config with upstream's defaults (kms apiVersion
// v1, cachesize 1000 for v1, timeout 3s) and upstream's messages, so a broken file fails
// start-up with the words kube-apiserver prints for it.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import type { EncryptionConfiguration, Key, KMSConfiguration, ProviderConfiguration, ResourceConfiguration } from './types.js';
import { validateEncryptionConfiguration } from './validate.js';

export interface LoadedConfig { config: EncryptionConfiguration; hash: string }

export class EncryptionConfigError extends Error {}

export function loadEncryptionConfig(path: string, reload: boolean): LoadedConfig {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (err) {
    throw new EncryptionConfigError(`error while parsing file: error opening encryption provider configuration file "${path}": ${(err as Error).message}`);
  }
  if (data.length === 0) throw new EncryptionConfigError(`error while parsing file: encryption provider configuration file "${path}" is empty`);
  const config = decode(data, path);
  const errors = validateEncryptionConfiguration(config, reload);
  if (errors.length > 0) throw new EncryptionConfigError(`error while parsing file: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);
  return { config, hash: contentHash(data) };
}

/** Upstream's hash of the file (the automatic reload compares it). */
export function contentHash(data: Buffer): string {
  return `${createHash('sha256').update(data).digest('hex')}`;
}

function decode(data: Buffer, path: string): EncryptionConfiguration {
  const fail = (why: string) => new EncryptionConfigError(`error while parsing file: error decoding encryption provider configuration file "${path}": ${why}`);
  let doc: unknown;
  try {
    doc = parseYaml(data.toString('utf8'));
  } catch (err) {
    throw fail((err as Error).message);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw fail("Object 'Kind' is missing in the file");
  const o = doc as Record<string, unknown>;
  if (!o.kind) throw fail(`Object 'Kind' is missing in '${data.toString('utf8').trim()}'`);
  if (o.apiVersion !== 'apiserver.config.k8s.io/v1' || o.kind !== 'EncryptionConfiguration') {
    throw fail(`no kind "${String(o.kind)}" is registered for version "${String(o.apiVersion ?? '')}" in scheme "pkg/runtime/scheme.go:100"`);
  }
  const resources = Array.isArray(o.resources) ? o.resources : [];
  return { resources: resources.map((r) => resourceConfig(r as Record<string, unknown>)) };
}

function resourceConfig(r: Record<string, unknown>): ResourceConfiguration {
  return {
    resources: Array.isArray(r?.resources) ? r.resources.map(String) : [],
    providers: Array.isArray(r?.providers) ? r.providers.map((p) => providerConfig(p as Record<string, unknown>)) : [],
  };
}

function keys(v: unknown): { keys: Key[] } {
  const list = (v as { keys?: unknown })?.keys;
  return { keys: Array.isArray(list) ? list.map((k) => ({ name: String(k?.name ?? ''), secret: String(k?.secret ?? '') })) : [] };
}

function providerConfig(p: Record<string, unknown>): ProviderConfiguration {
  const out: ProviderConfiguration = {};
  if (p?.aesgcm) out.aesgcm = keys(p.aesgcm);
  if (p?.aescbc) out.aescbc = keys(p.aescbc);
  if (p?.secretbox) out.secretbox = keys(p.secretbox);
  if (p && 'identity' in p) out.identity = {};
  if (p?.kms) out.kms = kmsConfig(p.kms as Record<string, unknown>);
  return out;
}

function kmsConfig(k: Record<string, unknown>): KMSConfiguration {
  const apiVersion = typeof k.apiVersion === 'string' && k.apiVersion !== '' ? k.apiVersion : 'v1';
  const timeout = typeof k.timeout === 'string' ? k.timeout : '3s';
  const cachesize = typeof k.cachesize === 'number' ? k.cachesize : apiVersion === 'v1' ? 1000 : undefined;
  return { apiVersion, name: String(k.name ?? ''), endpoint: String(k.endpoint ?? ''), cachesize, timeout, timeoutMs: parseGoDuration(timeout) };
}

/** A Go duration ("3s", "1m30s", "500ms"); NaN when it is not one. */
export function parseGoDuration(s: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(-?\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (const m of s.matchAll(re)) { total += Number(m[1]) * units[m[2]]; matched += m[0].length; }
  return matched === s.length && s.length > 0 ? total : s === '0' ? 0 : NaN;
}
