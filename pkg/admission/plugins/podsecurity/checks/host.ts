// Baseline checks on what a pod shares with its node: Windows HostProcess, host
// namespaces, host ports and hostPath volumes.
import {
  containerName, containersOf, joinQuote, list, obj, pluralize, podSecurityContext, securityContext, setters, sortedSet,
  type Check, type CheckFn,
} from './types.js';

const hostProcess: CheckFn = (_meta, spec) => {
  const isHostProcess = (sc: unknown): boolean => obj(obj(sc).windowsOptions).hostProcess === true;
  const pod = isHostProcess(podSecurityContext(spec));
  const bad = containersOf(spec).filter((c) => isHostProcess(securityContext(c))).map(containerName);
  const who = setters(pod, bad);
  if (who.length === 0) return undefined;
  return { reason: 'hostProcess', detail: `${who.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
};

const hostNamespaces: CheckFn = (_meta, spec) => {
  const used = ['hostIPC', 'hostNetwork', 'hostPID'].filter((f) => spec[f] === true);
  return used.length === 0 ? undefined : { reason: 'host namespaces', detail: used.join(', ') };
};

const hostPorts: CheckFn = (_meta, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containersOf(spec)) {
    const used = list(c.ports).map((p) => Number(p.hostPort ?? 0)).filter((p) => p !== 0);
    if (used.length === 0) continue;
    bad.push(containerName(c));
    ports.push(...used.map(String));
  }
  if (bad.length === 0) return undefined;
  const distinct = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
  };
};

export const hostPathVolumesID = 'hostPathVolumes';

const hostPathVolumes: CheckFn = (_meta, spec) => {
  const names = list(spec.volumes).filter((v) => v.hostPath != null).map((v) => String(v.name ?? ''));
  if (names.length === 0) return undefined;
  return { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` };
};

export const hostChecks: Check[] = [
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumVersion: 0, check: hostProcess }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumVersion: 0, check: hostNamespaces }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumVersion: 0, check: hostPorts }] },
  { id: hostPathVolumesID, level: 'baseline', versions: [{ minimumVersion: 0, check: hostPathVolumes }] },
];
