// Group and version order of discovery documents. Upstream orders groups by the
// APIService GroupPriorityMinimum (highest first, ties by name) and versions inside a
// group by VersionPriority (highest first, ties by kube-aware version order). The
// built-in priorities below are kube-apiserver v1.28's table for its own groups (and two of
// ours); any other group gets the resource manager's default (group 1000, version 15).
import { compareKubeAwareVersions } from '../../runtime/version-order.js';

interface Priority { group: number; versions: Record<string, number> }

const builtin: Record<string, Priority> = {
  '': { group: 18000, versions: { v1: 1 } },
  // The aggregator lists its own group first in /apis; the top priority keeps that.
  'apiregistration.k8s.io': { group: 18000, versions: { v1: 15 } },
  apps: { group: 17800, versions: { v1: 15 } },
  'events.k8s.io': { group: 17750, versions: { v1: 15, v1beta1: 5 } },
  'authentication.k8s.io': { group: 17700, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  'authorization.k8s.io': { group: 17600, versions: { v1: 15 } },
  autoscaling: { group: 17500, versions: { v2: 30, v1: 15, v2beta1: 9, v2beta2: 1 } },
  batch: { group: 17400, versions: { v1: 15, v1beta1: 9, v2alpha1: 9 } },
  'certificates.k8s.io': { group: 17300, versions: { v1: 15, v1alpha1: 1 } },
  'networking.k8s.io': { group: 17200, versions: { v1: 15, v1alpha1: 1 } },
  policy: { group: 17100, versions: { v1: 15, v1beta1: 9 } },
  'rbac.authorization.k8s.io': { group: 17000, versions: { v1: 15 } },
  'storage.k8s.io': { group: 16800, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  'apiextensions.k8s.io': { group: 16700, versions: { v1: 15 } },
  'admissionregistration.k8s.io': { group: 16700, versions: { v1: 15, v1beta1: 12, v1alpha1: 9 } },
  'scheduling.k8s.io': { group: 16600, versions: { v1: 15 } },
  'coordination.k8s.io': { group: 16500, versions: { v1: 15 } },
  'node.k8s.io': { group: 16300, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  'discovery.k8s.io': { group: 16200, versions: { v1: 15, v1beta1: 12 } },
  'flowcontrol.apiserver.k8s.io': { group: 16100, versions: { v1beta3: 18, v1beta2: 15, v1beta1: 12, v1alpha1: 9 } },
  'internal.apiserver.k8s.io': { group: 16000, versions: { v1alpha1: 9 } },
  'resource.k8s.io': { group: 15900, versions: { v1alpha2: 9 } },
  // Groups this server adds to upstream's, served locally as built-ins are: after every
  // upstream group and before extension servers' APIServices (which commonly ask 100-2000;
  // the default 1000 put ours among them). 9900 is OpenShift's own APIService priority
  // for authorization.openshift.io, so its clients see the group where they expect it.
  'authorization.openshift.io': { group: 9900, versions: { v1: 15 } },
  'history.apiserver.k8s-ts.io': { group: 9900, versions: { v1: 15 } },
};

const defaultGroupPriority = 1000;
const defaultVersionPriority = 15;

export function groupPriority(group: string): number {
  return builtin[group]?.group ?? defaultGroupPriority;
}

export function versionPriority(group: string, version: string): number {
  return builtin[group]?.versions[version] ?? defaultVersionPriority;
}

/** Groups in discovery order: highest priority first, ties broken by name. */
export function sortGroups(groups: string[]): string[] {
  return [...groups].sort((a, b) => {
    const d = groupPriority(b) - groupPriority(a);
    if (d !== 0) return d;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Versions of one group, preferred first. */
export function sortVersions(group: string, versions: string[]): string[] {
  return [...versions].sort((a, b) => {
    const d = versionPriority(group, b) - versionPriority(group, a);
    if (d !== 0) return d;
    return compareKubeAwareVersions(b, a);
  });
}
