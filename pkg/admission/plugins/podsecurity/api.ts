// Pod Security levels, policy versions and the namespace labels that select them
// (k8s.io/pod-security-admission/api): a level is privileged, baseline or restricted; a
// version is "latest" or "v1.x". Unparseable labels still yield a policy (restricted for
// enforce, privileged for audit and warn) together with the label errors.
import type { FieldError } from '../../../runtime/errors.js';

export type Level = 'privileged' | 'baseline' | 'restricted';
export const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: a minor of 1.x, or Infinity for "latest" (newer than every release). */
export type Version = number;
export const latest: Version = Infinity;

export interface LevelVersion { level: Level; version: Version }
export interface Policy { enforce: LevelVersion; audit: LevelVersion; warn: LevelVersion }
export type Mode = keyof Policy;
export const modes: readonly Mode[] = ['enforce', 'audit', 'warn'];

export const labelPrefix = 'pod-security.kubernetes.io/';
export const levelLabel = (m: Mode): string => `${labelPrefix}${m}`;
export const versionLabel = (m: Mode): string => `${labelPrefix}${m}-version`;

// Audit annotation keys; the plugin prefixes them with labelPrefix, as upstream's in-tree adapter does.
export const enforcePolicyAnnotation = 'enforce-policy';
export const auditViolationsAnnotation = 'audit-violations';
export const exemptAnnotation = 'exempt';

export function versionString(v: Version): string {
  return v === latest ? 'latest' : `v1.${v}`;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version === b.version;
}

/** Strictness order: negative when a is less strict than b. */
export function compareLevels(a: Level, b: Level): number {
  return levels.indexOf(a) - levels.indexOf(b);
}

export const levelError = `must be one of ${levels.join(', ')}`;
export const versionError = 'must be "latest" or "v1.x"';

export function parseLevel(value: string): Level | undefined {
  return (levels as readonly string[]).includes(value) ? value as Level : undefined;
}

export function parseVersion(value: string): Version | undefined {
  if (value === 'latest') return latest;
  const m = /^v1\.([0-9]|[1-9][0-9]*)$/.exec(value);
  return m ? Number(m[1]) : undefined;
}

export const privilegedPolicy: Policy = {
  enforce: { level: 'privileged', version: latest },
  audit: { level: 'privileged', version: latest },
  warn: { level: 'privileged', version: latest },
};

export function fullyPrivileged(p: Policy): boolean {
  return modes.every((m) => p[m].level === 'privileged');
}

/** The policy a namespace's labels select over the configured defaults, and the label errors. */
export function policyToEvaluate(labels: Record<string, string> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  if (!labels) return { policy, errors };
  const invalid = (label: string, value: string, detail: string): void => {
    errors.push({ type: 'FieldValueInvalid', field: `metadata.labels[${label}]`, value, detail });
  };
  for (const mode of modes) {
    const level = labels[levelLabel(mode)];
    if (level !== undefined) {
      const parsed = parseLevel(level);
      if (parsed === undefined) invalid(levelLabel(mode), level, levelError);
      // A bad enforce level fails closed; bad audit and warn levels fail open.
      policy[mode].level = parsed ?? (mode === 'enforce' ? 'restricted' : 'privileged');
    }
    const version = labels[versionLabel(mode)];
    if (version !== undefined) {
      const parsed = parseVersion(version);
      if (parsed === undefined) invalid(versionLabel(mode), version, versionError);
      policy[mode].version = parsed ?? latest;
    }
  }
  return { policy, errors };
}
