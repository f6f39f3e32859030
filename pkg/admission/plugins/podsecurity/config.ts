// The plugin's configuration (PodSecurityConfiguration in
// pod-security.admission.config.k8s.io v1, v1beta1 or v1alpha1): default levels and
// versions for namespaces without labels, and the exempt users, namespaces and runtime
// classes. Without one, everything defaults to privileged:latest and nothing is exempt.
import { isPlainObject } from '../../../runtime/object.js';
import { levelError, modes, parseLevel, parseVersion, privilegedPolicy, versionError, type Policy } from './api.js';

export interface Exemptions { usernames: string[]; namespaces: string[]; runtimeClasses: string[] }
export interface PodSecurityConfig { defaults: Policy; exemptions: Exemptions }

const group = 'pod-security.admission.config.k8s.io';
const versions = ['v1', 'v1beta1', 'v1alpha1'].map((v) => `${group}/${v}`);

export function parseConfiguration(raw: unknown): PodSecurityConfig {
  const out: PodSecurityConfig = {
    defaults: structuredClone(privilegedPolicy),
    exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
  };
  if (raw == null) return out;
  if (!isPlainObject(raw)) throw new Error('PodSecurity: configuration must be an object');
  if (raw.kind !== 'PodSecurityConfiguration' || !versions.includes(String(raw.apiVersion))) {
    throw new Error(`PodSecurity: expected kind PodSecurityConfiguration in ${group}/v1, got ${String(raw.apiVersion ?? '')} ${String(raw.kind ?? '')}`.trimEnd());
  }
  const errs: string[] = [];
  const defaults = isPlainObject(raw.defaults) ? raw.defaults : {};
  for (const mode of modes) {
    const level = defaults[mode];
    if (level !== undefined && level !== '') {
      const parsed = parseLevel(String(level));
      if (parsed) out.defaults[mode].level = parsed;
      else errs.push(`defaults.${mode}: Invalid value: ${JSON.stringify(level)}: ${levelError}`);
    }
    const version = defaults[`${mode}-version`];
    if (version !== undefined && version !== '') {
      const parsed = parseVersion(String(version));
      if (parsed !== undefined) out.defaults[mode].version = parsed;
      else errs.push(`defaults.${mode}-version: Invalid value: ${JSON.stringify(version)}: ${versionError}`);
    }
  }
  const exemptions = isPlainObject(raw.exemptions) ? raw.exemptions : {};
  for (const key of ['usernames', 'namespaces', 'runtimeClasses'] as const) {
    const values = exemptions[key];
    if (values === undefined || values === null) continue;
    if (!Array.isArray(values)) { errs.push(`exemptions.${key}: must be a list`); continue; }
    const seen = new Set<string>();
    values.forEach((v, i) => {
      const s = String(v ?? '');
      if (s === '') errs.push(`exemptions.${key}[${i}]: Invalid value: "": must be non-empty`);
      else if (seen.has(s)) errs.push(`exemptions.${key}[${i}]: Duplicate value: ${JSON.stringify(s)}`);
      seen.add(s);
    });
    out.exemptions[key] = values.map((v) => String(v ?? ''));
  }
  if (errs.length > 0) throw new Error(`PodSecurity: invalid configuration: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
  return out;
}
