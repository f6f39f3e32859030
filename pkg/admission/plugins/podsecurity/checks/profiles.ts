// Baseline and restricted checks on the kernel-level profiles a pod runs under:
// AppArmor, SELinux, seccomp and sysctls.
import { exceptWindows } from './privileges.js';
import {
  containerName, containersOf, joinQuote, list, obj, pluralize, podSecurityContext, securityContext, setters, sortedSet, str,
  type Check, type CheckFn, type Json,
} from './types.js';

const appArmorPrefix = 'container.apparmor.security.beta.kubernetes.io/';

// v1.28 knows AppArmor only through the beta annotations.
const appArmorProfile: CheckFn = (meta) => {
  const bad: string[] = [];
  for (const [key, value] of Object.entries(meta.annotations ?? {})) {
    if (!key.startsWith(appArmorPrefix)) continue;
    if (value === '' || value === 'runtime/default' || value.startsWith('localhost/')) continue;
    bad.push(`${key}=${JSON.stringify(value)}`);
  }
  if (bad.length === 0) return undefined;
  bad.sort();
  return { reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), detail: bad.join(', ') };
};

const seLinuxTypes = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

const seLinuxOptions: CheckFn = (_meta, spec) => {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (sc: Json | undefined): boolean => {
    if (!sc || sc.seLinuxOptions == null) return true;
    const o = obj(sc.seLinuxOptions);
    let ok = true;
    if (!seLinuxTypes.has(str(o.type))) { ok = false; badTypes.push(str(o.type)); }
    if (str(o.user) !== '') { ok = false; setUser = true; }
    if (str(o.role) !== '') { ok = false; setRole = true; }
    return ok;
  };
  const pod = !valid(podSecurityContext(spec));
  const bad = containersOf(spec).filter((c) => !valid(securityContext(c))).map(containerName);
  const who = setters(pod, bad);
  if (who.length === 0) return undefined;
  const data: string[] = [];
  const types = sortedSet(badTypes);
  if (types.length > 0) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) data.push('user may not be set');
  if (setRole) data.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${who.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
};

const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompContainerAnnotation = 'container.seccomp.security.alpha.kubernetes.io/';

const validSeccompAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
const validSeccompType = (t: string): boolean => t === 'RuntimeDefault' || t === 'Localhost';

// Before v1.19 seccomp was set with alpha annotations.
const seccompBaselineAnnotations: CheckFn = (meta, spec) => {
  const annotations = meta.annotations ?? {};
  const forbidden: string[] = [];
  const inspect = (key: string): void => {
    const value = annotations[key];
    if (value !== undefined && !validSeccompAnnotation(value)) forbidden.push(`${key}=${JSON.stringify(value)}`);
  };
  inspect(seccompPodAnnotation);
  for (const c of containersOf(spec)) inspect(seccompContainerAnnotation + containerName(c));
  const distinct = sortedSet(forbidden);
  if (distinct.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', distinct.length)} ${distinct.join(', ')}` };
};

interface SeccompFindings { badPod: boolean; podValid: boolean; explicit: string[]; implicit: string[]; values: string[] }

function seccompFindings(spec: Json): SeccompFindings {
  const f: SeccompFindings = { badPod: false, podValid: false, explicit: [], implicit: [], values: [] };
  const podProfile = podSecurityContext(spec)?.seccompProfile;
  if (podProfile != null) {
    const t = str(obj(podProfile).type);
    if (validSeccompType(t)) f.podValid = true;
    else { f.badPod = true; f.values.push(t); }
  }
  for (const c of containersOf(spec)) {
    const profile = securityContext(c)?.seccompProfile;
    if (profile != null) {
      const t = str(obj(profile).type);
      if (!validSeccompType(t)) { f.explicit.push(containerName(c)); f.values.push(t); }
    } else if (!f.podValid) {
      f.implicit.push(containerName(c));
    }
  }
  return f;
}

function explicitSeccompViolation(f: SeccompFindings): { reason: string; detail: string } | undefined {
  const who = setters(f.badPod, f.explicit);
  if (who.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(f.values))}` };
}

const seccompBaseline: CheckFn = (_meta, spec) => explicitSeccompViolation(seccompFindings(spec));

const seccompRestricted: CheckFn = (_meta, spec) => {
  const f = seccompFindings(spec);
  const explicit = explicitSeccompViolation(f);
  if (explicit) return explicit;
  if (f.implicit.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `pod or ${pluralize('container', 'containers', f.implicit.length)} ${joinQuote(f.implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  };
};

const safeSysctls = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];

const sysctlsAllowing = (allowed: Set<string>): CheckFn => (_meta, spec) => {
  const bad = list(podSecurityContext(spec)?.sysctls).map((s) => str(s.name)).filter((n) => !allowed.has(n));
  return bad.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: bad.join(', ') };
};

export const seccompBaselineID = 'seccompProfile_baseline';

export const profileChecks: Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumVersion: 0, check: appArmorProfile }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minimumVersion: 0, check: seLinuxOptions }] },
  {
    id: seccompBaselineID, level: 'baseline', versions: [
      { minimumVersion: 0, check: seccompBaselineAnnotations },
      { minimumVersion: 19, check: seccompBaseline },
    ],
  },
  {
    id: 'seccompProfile_restricted', level: 'restricted', versions: [
      { minimumVersion: 19, check: seccompRestricted, overrides: [seccompBaselineID] },
      { minimumVersion: 25, check: exceptWindows(seccompRestricted), overrides: [seccompBaselineID] },
    ],
  },
  {
    id: 'sysctls', level: 'baseline', versions: [
      { minimumVersion: 0, check: sysctlsAllowing(new Set(safeSysctls)) },
      { minimumVersion: 27, check: sysctlsAllowing(new Set([...safeSysctls, 'net.ipv4.ip_local_reserved_ports'])) },
    ],
  },
];
