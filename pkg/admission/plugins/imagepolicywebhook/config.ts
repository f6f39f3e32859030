// The ImagePolicyWebhook configuration ({imagePolicy: {kubeConfigFile, allowTTL, denyTTL,
// retryBackoff, defaultAllow}}) with upstream's units, defaults and bounds: TTLs in
// seconds (1s..30m; allow 5m and deny 30s by default), the backoff in milliseconds
// (up to 5m, 500ms by default); 0 means the default and -1 turns the value off.
import { isAbsolute, resolve } from 'node:path';
import { isPlainObject } from '../../../runtime/object.js';
import type { PluginConfig } from '../../config.js';

export interface ImagePolicyConfig {
  kubeConfigFile: string;
  allowTTLMs: number;
  denyTTLMs: number;
  retryBackoffMs: number;
  defaultAllow: boolean;
}

const second = 1000;
const minute = 60 * second;

interface Bounds { name: string; scaleMs: number; minMs: number; maxMs: number; defaultMs: number }

const backoff: Bounds = { name: 'backoff', scaleMs: 1, minMs: 1e-6, maxMs: 5 * minute, defaultMs: 500 };
const allowTTL: Bounds = { name: 'allow cache', scaleMs: second, minMs: second, maxMs: 30 * minute, defaultMs: 5 * minute };
const denyTTL: Bounds = { name: 'deny cache', scaleMs: second, minMs: second, maxMs: 30 * minute, defaultMs: 30 * second };

/** Go's time.Duration.String() for the values these bounds produce. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1e-3) return `${Math.round(ms * 1e6)}ns`;
  if (ms < 1) return `${+(ms * 1e3).toFixed(3)}µs`;
  if (ms < second) return `${+ms.toFixed(6)}ms`;
  const h = Math.floor(ms / (60 * minute));
  const m = Math.floor((ms % (60 * minute)) / minute);
  const s = +((ms % minute) / second).toFixed(9);
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

function normalize(raw: unknown, field: string, b: Bounds): number {
  if (raw === undefined || raw === null) return b.defaultMs;
  if (typeof raw !== 'number' || !Number.isInteger(raw)) {
    const value = typeof raw === 'number' ? `number ${raw}` : typeof raw === 'boolean' ? 'bool' : Array.isArray(raw) ? 'array' : typeof raw;
    throw new Error(`json: cannot unmarshal ${value} into Go struct field AdmissionConfig.imagePolicy.${field} of type time.Duration`);
  }
  if (raw === -1) return 0;
  if (raw === 0) return b.defaultMs;
  const ms = raw * b.scaleMs;
  if (ms < b.minMs || ms > b.maxMs) {
    throw new Error(`valid value is between ${goDuration(b.minMs)} and ${goDuration(b.maxMs)}, got ${goDuration(ms)}`);
  }
  return ms;
}

export function parseImagePolicyConfig(config: PluginConfig | undefined): ImagePolicyConfig {
  if (!config || config.configuration === undefined || config.configuration === null) throw new Error('no config specified');
  const doc = config.configuration;
  const p = isPlainObject(doc) && isPlainObject(doc.imagePolicy) ? doc.imagePolicy : {};
  const file = typeof p.kubeConfigFile === 'string' ? p.kubeConfigFile : '';
  return {
    kubeConfigFile: file && !isAbsolute(file) ? resolve(config.baseDir, file) : file,
    retryBackoffMs: normalize(p.retryBackoff, 'retryBackoff', backoff),
    allowTTLMs: normalize(p.allowTTL, 'allowTTL', allowTTL),
    denyTTLMs: normalize(p.denyTTL, 'denyTTL', denyTTL),
    defaultAllow: p.defaultAllow === true,
  };
}
