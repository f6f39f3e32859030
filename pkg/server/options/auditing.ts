// Upstream's "auditing" flag set (AuditOptions): a log backend (blocking by default) and
// a webhook backend (batch by default), each with its own batch tuning and defaults.
import { parseAuditOptions, type AuditOptions } from '../../audit/options.js';
import type { FlagSection, FlagSpec, FlagValues } from '../flags.js';

export interface AuditingOptions {
  /** --audit-* flags. */
  audit: AuditOptions;
}

interface BackendDefaults { mode: string; bufferSize: string; maxSize: string; maxWait?: string; throttle?: { enable: string; qps: string; burst: string } }

/** The flags each backend repeats under its own prefix (`audit-log-`, `audit-webhook-`). */
function backendFlags(p: 'log' | 'webhook', what: string, d: BackendDefaults): FlagSpec[] {
  return [
    { name: `audit-${p}-batch-buffer-size`, type: 'int', default: d.bufferSize, usage: 'Events buffered before batching. Batch mode only.' },
    { name: `audit-${p}-batch-max-size`, type: 'int', default: d.maxSize, usage: 'Largest batch. Batch mode only.' },
    { name: `audit-${p}-batch-max-wait`, type: 'duration', default: d.maxWait, usage: 'Longest wait before a batch short of the max size is sent. Batch mode only.' },
    { name: `audit-${p}-batch-throttle-burst`, type: 'int', default: d.throttle?.burst, usage: 'Batches that may be sent at once when the QPS was unused before. Batch mode only.' },
    { name: `audit-${p}-batch-throttle-enable`, type: 'bool', default: d.throttle?.enable, usage: 'Whether batch sending is throttled. Batch mode only.' },
    { name: `audit-${p}-batch-throttle-qps`, type: 'float', default: d.throttle?.qps, usage: 'Average batches per second at most. Batch mode only.' },
    { name: `audit-${p}-mode`, type: 'string', default: d.mode, usage: `How events are sent ${what}: blocking, blocking-strict or batch (buffered, asynchronous).` },
    { name: `audit-${p}-truncate-enabled`, type: 'bool', usage: 'Whether oversized events and batches are truncated.' },
    { name: `audit-${p}-truncate-max-batch-size`, type: 'int', default: '10485760', usage: 'Largest batch in bytes; larger ones are split.' },
    { name: `audit-${p}-truncate-max-event-size`, type: 'int', default: '102400', usage: 'Largest event in bytes; larger ones lose request and response, then are dropped.' },
    { name: `audit-${p}-version`, type: 'string', default: 'audit.k8s.io/v1', usage: `API group/version of the events ${what}.` },
  ];
}

export const auditingSection: FlagSection<AuditingOptions> = {
  name: 'auditing',
  flags: [
    ...backendFlags('log', 'to the log file', { mode: 'blocking', bufferSize: '10000', maxSize: '1' }),
    { name: 'audit-log-compress', type: 'bool', usage: 'Gzip rotated audit log files.' },
    { name: 'audit-log-format', type: 'string', default: 'json', usage: 'Audit log line format: json or legacy (one line of text per event).' },
    { name: 'audit-log-maxage', type: 'int', usage: 'Days to keep rotated audit log files.' },
    { name: 'audit-log-maxbackup', type: 'int', usage: 'Rotated audit log files to keep; 0 for no limit.' },
    { name: 'audit-log-maxsize', type: 'int', usage: 'Megabytes an audit log file may grow to before it is rotated.' },
    { name: 'audit-log-path', type: 'string', usage: 'Write audit events to this file; - for standard output.' },
    { name: 'audit-policy-file', type: 'string', usage: 'Audit policy: which requests are recorded, at which level.' },
    ...backendFlags('webhook', 'to the webhook', {
      mode: 'batch', bufferSize: '10000', maxSize: '400', maxWait: '30s', throttle: { enable: 'true', qps: '10', burst: '15' },
    }),
    { name: 'audit-webhook-config-file', type: 'string', usage: 'kubeconfig-formatted file naming the audit webhook.' },
    { name: 'audit-webhook-initial-backoff', type: 'duration', default: '10s', usage: 'Wait before the first retry of a failed webhook request.' },
  ],
  read: (f: FlagValues): AuditingOptions => ({ audit: parseAuditOptions(f) }),
};
