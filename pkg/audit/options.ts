// kube-apiserver's audit flags, names and defaults as upstream's AuditOptions: a log
// backend (blocking by default) and a webhook backend (batch by default), each with its
// own batch tuning.
import type { FlagSpec } from '../server/flags.js';
import type { BatchOptions } from './buffered-backend.js';
import type { LogFormat } from './log-backend.js';

export type AuditMode = 'batch' | 'blocking' | 'blocking-strict';
const modes: AuditMode[] = ['batch', 'blocking', 'blocking-strict'];

export interface BackendModeOptions { mode: AuditMode; batch: BatchOptions }

export interface AuditOptions {
  policyFile?: string;
  log?: BackendModeOptions & { path: string; format: LogFormat; maxAgeDays: number; maxBackups: number; maxSizeMB: number; compress: boolean };
  webhook?: BackendModeOptions & { configFile: string; initialBackoffMs: number };
}

const batchFlags = (p: string): Array<[string, FlagSpec]> => [
  [`audit-${p}-mode`, { type: 'string' }],
  [`audit-${p}-batch-buffer-size`, { type: 'int' }],
  [`audit-${p}-batch-max-size`, { type: 'int' }],
  [`audit-${p}-batch-max-wait`, { type: 'duration' }],
  [`audit-${p}-batch-throttle-enable`, { type: 'bool' }],
  [`audit-${p}-batch-throttle-qps`, { type: 'string' }],
  [`audit-${p}-batch-throttle-burst`, { type: 'int' }],
  [`audit-${p}-truncate-enabled`, { type: 'bool' }],
  [`audit-${p}-truncate-max-batch-size`, { type: 'int' }],
  [`audit-${p}-truncate-max-event-size`, { type: 'int' }],
  [`audit-${p}-version`, { type: 'string' }],
];

export const auditFlagSpecs: Record<string, FlagSpec> = Object.fromEntries([
  ['audit-policy-file', { type: 'string' }],
  ['audit-log-path', { type: 'string' }],
  ['audit-log-maxage', { type: 'int' }],
  ['audit-log-maxbackup', { type: 'int' }],
  ['audit-log-maxsize', { type: 'int' }],
  ['audit-log-format', { type: 'string' }],
  ['audit-log-compress', { type: 'bool' }],
  ['audit-webhook-config-file', { type: 'string' }],
  ['audit-webhook-initial-backoff', { type: 'duration' }],
  ...batchFlags('log'),
  ...batchFlags('webhook'),
]);

type Read = {
  one: (n: string) => string | undefined;
  int: (n: string, def: number) => number;
  dur: (n: string, def: number) => number;
  bool: (n: string, def: boolean) => boolean;
};

export function parseAuditOptions(r: Read): AuditOptions {
  const version = (p: string) => {
    const v = r.one(`audit-${p}-version`);
    if (v !== undefined && v !== 'audit.k8s.io/v1') throw new Error(`--audit-${p}-version: invalid audit version ${v}, supported versions are: audit.k8s.io/v1`);
  };
  const modeOf = (p: string, def: AuditMode, batch: Omit<BatchOptions, 'throttleQPS'> & { throttleQPS: number }): BackendModeOptions => {
    version(p);
    const mode = (r.one(`audit-${p}-mode`) ?? def) as AuditMode;
    if (!modes.includes(mode)) throw new Error(`invalid audit ${p} mode ${mode}, allowed modes are ${JSON.stringify(modes.join(','))}`);
    const qps = r.one(`audit-${p}-batch-throttle-qps`);
    return {
      mode,
      batch: {
        bufferSize: r.int(`audit-${p}-batch-buffer-size`, batch.bufferSize),
        maxBatchSize: r.int(`audit-${p}-batch-max-size`, batch.maxBatchSize),
        maxBatchWaitMs: r.dur(`audit-${p}-batch-max-wait`, batch.maxBatchWaitMs),
        throttleEnable: r.bool(`audit-${p}-batch-throttle-enable`, batch.throttleEnable),
        throttleQPS: qps !== undefined ? Number(qps) : batch.throttleQPS,
        throttleBurst: r.int(`audit-${p}-batch-throttle-burst`, batch.throttleBurst),
      },
    };
  };
  const out: AuditOptions = { policyFile: r.one('audit-policy-file') || undefined };
  const logPath = r.one('audit-log-path');
  if (logPath) {
    const format = r.one('audit-log-format') ?? 'json';
    if (format !== 'json' && format !== 'legacy') throw new Error(`invalid audit log format ${format}, allowed formats are "json,legacy"`);
    const nonNegative = (n: string) => {
      const v = r.int(n, 0);
      if (v < 0) throw new Error(`--${n} can't be a negative number`);
      return v;
    };
    out.log = {
      ...modeOf('log', 'blocking', { bufferSize: 10000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 }),
      path: logPath, format, compress: r.bool('audit-log-compress', false),
      maxAgeDays: nonNegative('audit-log-maxage'), maxBackups: nonNegative('audit-log-maxbackup'), maxSizeMB: nonNegative('audit-log-maxsize'),
    };
  }
  const webhookConfig = r.one('audit-webhook-config-file');
  if (webhookConfig) {
    out.webhook = {
      ...modeOf('webhook', 'batch', { bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 }),
      configFile: webhookConfig, initialBackoffMs: r.dur('audit-webhook-initial-backoff', 10_000),
    };
  }
  return out;
}
