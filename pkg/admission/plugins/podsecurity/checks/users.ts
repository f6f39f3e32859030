// Restricted checks on the user a pod runs as: never root, and never UID 0 explicitly.
import {
  containerName, containersOf, joinQuote, pluralize, podSecurityContext, securityContext, setters,
  type Check, type CheckFn,
} from './types.js';

const runAsNonRoot: CheckFn = (_meta, spec) => {
  const podValue = podSecurityContext(spec)?.runAsNonRoot;
  const badPod = podValue === false;
  const podNonRoot = podValue === true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const v = securityContext(c)?.runAsNonRoot;
    if (typeof v === 'boolean') {
      if (!v) explicit.push(containerName(c));
    } else if (!podNonRoot) {
      implicit.push(containerName(c));
    }
  }
  const who = setters(badPod, explicit);
  if (who.length > 0) return { reason: 'runAsNonRoot != true', detail: `${who.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length === 0) return undefined;
  return {
    reason: 'runAsNonRoot != true',
    detail: `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.runAsNonRoot=true`,
  };
};

const runAsUser: CheckFn = (_meta, spec) => {
  const pod = podSecurityContext(spec)?.runAsUser === 0;
  const bad = containersOf(spec).filter((c) => securityContext(c)?.runAsUser === 0).map(containerName);
  const who = setters(pod, bad);
  return who.length === 0 ? undefined : { reason: 'runAsUser=0', detail: `${who.join(' and ')} must not set runAsUser=0` };
};

export const userChecks: Check[] = [
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimumVersion: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimumVersion: 23, check: runAsUser }] },
];
