// kube-apiserver's audit flags, names and defaults as upstream's AuditOptions: a log
// backend (blocking by default) and a webhook backend (batch by default), each with its
// own batch tuning.
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

/** Flag reads with each flag's default applied (the flags are declared in pkg/server/options/auditing.ts). */
type Read = {
  string: (n: string) => string | undefined;
  int: (n: string) => number;
  float: (n: string) => number;
  duration: (n: string) => number;
  bool: (n: string) => boolean;
};

export function parseAuditOptions(r: Read): AuditOptions {
  const version = (p: string) => {
    const v = r.string(`audit-${p}-version`);
    if (v !== 'audit.k8s.io/v1') throw new Error(`--audit-${p}-version: invalid audit version ${v}, supported versions are: audit.k8s.io/v1`);
  };
  const modeOf = (p: string): BackendModeOptions => {
    version(p);
    const mode = r.string(`audit-${p}-mode`) as AuditMode;
    if (!modes.includes(mode)) throw new Error(`invalid audit ${p} mode ${mode}, allowed modes are ${JSON.stringify(modes.join(','))}`);
    return {
      mode,
      batch: {
        bufferSize: r.int(`audit-${p}-batch-buffer-size`),
        maxBatchSize: r.int(`audit-${p}-batch-max-size`),
        maxBatchWaitMs: r.duration(`audit-${p}-batch-max-wait`),
        throttleEnable: r.bool(`audit-${p}-batch-throttle-enable`),
        throttleQPS: r.float(`audit-${p}-batch-throttle-qps`),
        throttleBurst: r.int(`audit-${p}-batch-throttle-burst`),
      },
    };
  };
  const out: AuditOptions = { policyFile: r.string('audit-policy-file') || undefined };
  const logPath = r.string('audit-log-path');
  if (logPath) {
    const format = r.string('audit-log-format');
    if (format !== 'json' && format !== 'legacy') throw new Error(`invalid audit log format ${format}, allowed formats are "json,legacy"`);
    const nonNegative = (n: string) => {
      const v = r.int(n);
      if (v < 0) throw new Error(`--${n} can't be a negative number`);
      return v;
    };
    out.log = {
      ...modeOf('log'),
      path: logPath, format, compress: r.bool('audit-log-compress'),
      maxAgeDays: nonNegative('audit-log-maxage'), maxBackups: nonNegative('audit-log-maxbackup'), maxSizeMB: nonNegative('audit-log-maxsize'),
    };
  }
  const webhookConfig = r.string('audit-webhook-config-file');
  if (webhookConfig) {
    out.webhook = {
      ...modeOf('webhook'),
      configFile: webhookConfig, initialBackoffMs: r.duration('audit-webhook-initial-backoff'),
    };
  }
  return out;
}
