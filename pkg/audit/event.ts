// audit.k8s.io/v1 Event: what one request looked like at one stage, and the two line
// formats the log backend writes (json, and upstream's "legacy" one-line text).
import type { Level, Stage } from './policy.js';
import { goJson } from '../runtime/serializer/json/go-escapes.js';

export interface AuditUser { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** metav1.MicroTime: always six fractional digits. */
export function microTime(ms: number, extraMicros = 0): string {
  const iso = new Date(ms).toISOString(); // 2006-01-02T15:04:05.000Z
  return `${iso.slice(0, 23)}${String(extraMicros).padStart(3, '0')}Z`;
}

/** The time now, to the microsecond, as metav1.MicroTime. */
export function nowMicro(): string {
  return microTimeAt(process.hrtime.bigint());
}

/** A process.hrtime.bigint() reading as metav1.MicroTime (taken early, formatted when needed). */
export function microTimeAt(hrtime: bigint): string {
  clockOrigin ??= { hrtime: process.hrtime.bigint(), wallNs: BigInt(Date.now()) * 1_000_000n };
  const ns = hrtime - clockOrigin.hrtime + clockOrigin.wallNs;
  const ms = Number(ns / 1_000_000n);
  return microTime(ms, Number((ns / 1000n) % 1000n));
}
// Read at first use, not as the module loads: the startup snapshot (hack/bundle-snapshot.ts)
// evaluates modules at build time.
let clockOrigin: { hrtime: bigint; wallNs: bigint } | undefined;

/** One event as upstream's log backend writes it: its JSON encoder's line (Go's escapes: a requestURI's `&` is \u0026). */
export function jsonLine(ev: AuditEvent): string {
  return `${goJson(ev)}\n`;
}

/** Go's time.RFC3339Nano of a MicroTime: trailing fractional zeros dropped. */
function rfc3339Nano(micro: string): string {
  return micro.replace(/\.(\d*?)0+Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

const q = (s: string): string => JSON.stringify(s);

/** Upstream's EventString, prefixed by the receive time, one line per event. */
export function legacyLine(ev: AuditEvent): string {
  const username = ev.user.username || '<none>';
  const groups = ev.user.username && ev.user.groups?.length ? ev.user.groups.map(q).join(',') : '<none>';
  const as = ev.impersonatedUser ? ev.impersonatedUser.username : '<self>';
  const asGroups = ev.impersonatedUser?.groups ? ev.impersonatedUser.groups.map(q).join(',') : '<lookup>';
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} `
    + `user=${q(username)} groups=${q(groups)} as=${q(as)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} `
    + `namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"\n`;
}
