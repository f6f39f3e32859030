// The shape every Pod Security check shares: it reads a pod's (or pod template's)
// metadata and spec as plain JSON and either allows it or names a reason and detail.
import { isPlainObject } from '../../../../runtime/object.js';
import type { Level, Version } from '../api.js';

export type Json = Record<string, unknown>;

export interface PodMeta { annotations?: Record<string, string> }

export interface CheckResult { reason: string; detail: string }

/** Returns undefined when the pod is allowed. */
export type CheckFn = (meta: PodMeta, spec: Json) => CheckResult | undefined;

export interface VersionedCheck {
  /** The first policy minor (1.x) this implementation applies to. */
  minimumVersion: Version;
  check: CheckFn;
  /** Baseline checks this one replaces at the restricted level. */
  overrides?: string[];
}

export interface Check {
  id: string;
  level: Exclude<Level, 'privileged'>;
  /** Ascending by minimumVersion. */
  versions: VersionedCheck[];
}

export function obj(v: unknown): Json {
  return isPlainObject(v) ? v : {};
}

export function list(v: unknown): Json[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `"a", "b"` as upstream's joinQuote writes names. */
export function joinQuote(items: string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** Sorted distinct values (Go's sets.String.List()). */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Init, regular, then ephemeral containers: the order upstream names them in. */
export function containersOf(spec: Json): Json[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

export function containerName(c: Json): string {
  return str(c.name);
}

export function securityContext(c: Json): Json | undefined {
  return isPlainObject(c.securityContext) ? c.securityContext : undefined;
}

export function podSecurityContext(spec: Json): Json | undefined {
  return isPlainObject(spec.securityContext) ? spec.securityContext : undefined;
}

/** "pod and containers "a", "b"" style subject lists. */
export function setters(pod: boolean, containers: string[]): string[] {
  const out = pod ? ['pod'] : [];
  if (containers.length > 0) out.push(`${pluralize('container', 'containers', containers.length)} ${joinQuote(containers)}`);
  return out;
}

export function isWindowsPod(spec: Json): boolean {
  return str(obj(spec.os).name) === 'windows';
}
