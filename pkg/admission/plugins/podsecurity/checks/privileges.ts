// Checks on what a container may do on its node: privileged mode, added and dropped
// capabilities, privilege escalation and unmasked /proc.
import {
  containerName, containersOf, isWindowsPod, joinQuote, obj, pluralize, securityContext, sortedSet, str,
  type Check, type CheckFn, type Json,
} from './types.js';

const containers = (names: string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

const privileged: CheckFn = (_meta, spec) => {
  const bad = containersOf(spec).filter((c) => securityContext(c)?.privileged === true).map(containerName);
  if (bad.length === 0) return undefined;
  return { reason: 'privileged', detail: `${containers(bad)} must not set securityContext.privileged=true` };
};

const baselineCapabilities = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
  'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

function added(c: Json): string[] {
  const add = obj(securityContext(c)?.capabilities).add;
  return Array.isArray(add) ? add.map(String) : [];
}

export const capabilitiesBaselineID = 'capabilities_baseline';

const capabilitiesBaseline: CheckFn = (_meta, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const forbidden = added(c).filter((cap) => !baselineCapabilities.has(cap));
    if (forbidden.length === 0) continue;
    bad.push(containerName(c));
    caps.push(...forbidden);
  }
  if (bad.length === 0) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containers(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
  };
};

const capabilitiesRestricted: CheckFn = (_meta, spec) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const capabilities = securityContext(c)?.capabilities;
    if (capabilities == null) {
      missingDropAll.push(containerName(c));
      continue;
    }
    const drop = Array.isArray(obj(capabilities).drop) ? (obj(capabilities).drop as unknown[]) : [];
    if (!drop.includes('ALL')) missingDropAll.push(containerName(c));
    const forbidden = added(c).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (forbidden.length > 0) {
      addingForbidden.push(containerName(c));
      caps.push(...forbidden);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containers(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) {
    details.push(`${containers(addingForbidden)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
  }
  return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
};

// Windows pods cannot set these Linux-only fields, so from v1.25 they are not asked to.
const exceptWindows = (check: CheckFn): CheckFn => (meta, spec) => (isWindowsPod(spec) ? undefined : check(meta, spec));

const allowPrivilegeEscalation: CheckFn = (_meta, spec) => {
  const bad = containersOf(spec).filter((c) => securityContext(c)?.allowPrivilegeEscalation !== false).map(containerName);
  if (bad.length === 0) return undefined;
  return { reason: 'allowPrivilegeEscalation != false', detail: `${containers(bad)} must set securityContext.allowPrivilegeEscalation=false` };
};

const procMount: CheckFn = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containersOf(spec)) {
    const value = securityContext(c)?.procMount;
    if (value == null || value === 'Default') continue;
    bad.push(containerName(c));
    types.push(str(value));
  }
  if (bad.length === 0) return undefined;
  return { reason: 'procMount', detail: `${containers(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
};

export const privilegeChecks: Check[] = [
  { id: 'privileged', level: 'baseline', versions: [{ minimumVersion: 0, check: privileged }] },
  { id: capabilitiesBaselineID, level: 'baseline', versions: [{ minimumVersion: 0, check: capabilitiesBaseline }] },
  { id: 'procMount', level: 'baseline', versions: [{ minimumVersion: 0, check: procMount }] },
  {
    id: 'allowPrivilegeEscalation', level: 'restricted', versions: [
      { minimumVersion: 8, check: allowPrivilegeEscalation },
      { minimumVersion: 25, check: exceptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted', level: 'restricted', versions: [
      { minimumVersion: 22, check: capabilitiesRestricted, overrides: [capabilitiesBaselineID] },
      { minimumVersion: 25, check: exceptWindows(capabilitiesRestricted), overrides: [capabilitiesBaselineID] },
    ],
  },
];

export { exceptWindows };
