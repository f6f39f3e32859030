// Pod quota: compute requests and limits (cpu, memory, ephemeral-storage, hugepages,
// extended resources as `requests.<name>`), the `pods` count, and `count/pods`. Pods in
// a terminal phase, or past their deletion grace, are charged only `count/pods`.
import type { Operation } from '../../admission/interfaces.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { Quantity } from '../../util/quantity/index.js';
import { add, parseResourceList, type ResourceList } from '../resources.js';
import type { Evaluator, ScopeSelector } from './interfaces.js';
import { objectCountName } from './objectcount.js';

const podCount = objectCountName('', 'pods');
const podResources = [
  podCount, 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
];
const hugePagesPrefix = 'hugepages-';
const requestsPrefix = 'requests.';

// Upstream's backward-compatibility rule: quota on these makes every container declare them.
const validationSet = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** A resource name of the cluster itself (no domain, or a kubernetes.io one). */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

function isExtendedResourceName(name: string): boolean {
  return !isNativeResource(name) && !name.startsWith(requestsPrefix);
}

interface Container {
  name?: string;
  restartPolicy?: string;
  resources?: { requests?: unknown; limits?: unknown };
}

function specOf(pod: KubeObject): Record<string, unknown> {
  return isPlainObject(pod.spec) ? pod.spec : {};
}

function containers(pod: KubeObject, field: 'containers' | 'initContainers'): Container[] {
  const list = specOf(pod)[field];
  return Array.isArray(list) ? (list as Container[]) : [];
}

function maxInto(acc: ResourceList, l: ResourceList): void {
  for (const [k, q] of l) if (!acc.has(k) || acc.get(k)!.cmp(q) < 0) acc.set(k, q);
}

/**
 * The pod's effective requests or limits (upstream's PodRequests/PodLimits): the sum over
 * containers and restartable init containers, at least the largest init container (with
 * the sidecars started before it), plus overhead.
 */
export function podResourceTotals(pod: KubeObject, which: 'requests' | 'limits'): ResourceList {
  let total: ResourceList = new Map();
  for (const c of containers(pod, 'containers')) total = add(total, parseResourceList(c.resources?.[which]));
  let sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of containers(pod, 'initContainers')) {
    const own = parseResourceList(c.resources?.[which]);
    let effective: ResourceList;
    if (c.restartPolicy === 'Always') {
      total = add(total, own);
      sidecars = add(sidecars, own);
      effective = sidecars;
    } else {
      effective = add(own, sidecars);
    }
    maxInto(initMax, effective);
  }
  maxInto(total, initMax);
  const overhead = parseResourceList(specOf(pod).overhead);
  if (which === 'requests') return add(total, overhead);
  // Overhead adds to a limit only where the pod sets one.
  for (const [k, q] of overhead) if (total.has(k)) total.set(k, total.get(k)!.add(q));
  return total;
}

/** Upstream's podComputeUsageHelper: quota names charged for these requests and limits. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', Quantity.fromInt(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) { out.set(r, req); out.set(`requests.${r}`, req); }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith(hugePagesPrefix)) { out.set(r, q); out.set(`${requestsPrefix}${r}`, q); }
    if (isExtendedResourceName(r)) out.set(`${requestsPrefix}${r}`, q);
  }
  return out;
}

/** Whether a pod is charged compute quota: not terminal, not stuck past its deletion grace. */
export function podIsCharged(pod: KubeObject, now = Date.now()): boolean {
  const phase = isPlainObject(pod.status) ? pod.status.phase : undefined;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && deletionGracePeriodSeconds !== undefined) {
    if (now > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

export function isTerminating(pod: KubeObject): boolean {
  const ads = specOf(pod).activeDeadlineSeconds;
  return typeof ads === 'number' && ads >= 0;
}

/** BestEffort QoS: no container requests or limits a positive amount of cpu or memory. */
export function isBestEffort(pod: KubeObject): boolean {
  for (const c of [...containers(pod, 'containers'), ...containers(pod, 'initContainers')]) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      const l = parseResourceList(list);
      for (const r of ['cpu', 'memory']) if ((l.get(r)?.sign() ?? 0) > 0) return false;
    }
  }
  return true;
}

interface AffinityTerm { namespaces?: unknown[]; namespaceSelector?: unknown }

function crossNamespaceTerms(terms: unknown, weighted: boolean): boolean {
  if (!Array.isArray(terms)) return false;
  return terms.some((t) => {
    const term = (weighted ? (t as { podAffinityTerm?: AffinityTerm }).podAffinityTerm : t) as AffinityTerm | undefined;
    return !!term && ((Array.isArray(term.namespaces) && term.namespaces.length > 0) || term.namespaceSelector != null);
  });
}

export function usesCrossNamespacePodAffinity(pod: KubeObject): boolean {
  const affinity = specOf(pod).affinity as Record<string, Record<string, unknown> | undefined> | undefined;
  if (!isPlainObject(affinity)) return false;
  return [affinity.podAffinity, affinity.podAntiAffinity].some((a) => isPlainObject(a)
    && (crossNamespaceTerms(a.requiredDuringSchedulingIgnoredDuringExecution, false)
      || crossNamespaceTerms(a.preferredDuringSchedulingIgnoredDuringExecution, true)));
}

/** A PriorityClass selector as a label requirement on {PriorityClass: <name>}. */
function priorityClassMatches(pod: KubeObject, sel: ScopeSelector): boolean {
  const name = specOf(pod).priorityClassName;
  const has = typeof name === 'string' && name !== '';
  const values = sel.values ?? [];
  switch (sel.operator) {
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'In': return has && values.includes(name as string);
    case 'NotIn': return !has || !values.includes(name as string);
    default: return false;
  }
}

export class PodEvaluator implements Evaluator {
  readonly group = '';
  readonly resource = 'pods';

  handles(operation: Operation, subresource: string): boolean {
    return subresource === '' && operation === 'CREATE';
  }

  matchingResources(names: string[]): string[] {
    return names.filter((n) => podResources.includes(n) || n.startsWith(hugePagesPrefix)
      || n.startsWith(`${requestsPrefix}${hugePagesPrefix}`) || (!isNativeResource(n) && n.startsWith(requestsPrefix)));
  }

  matchesScope(sel: ScopeSelector, pod: KubeObject): boolean {
    switch (sel.scopeName) {
      case 'Terminating': return isTerminating(pod);
      case 'NotTerminating': return !isTerminating(pod);
      case 'BestEffort': return isBestEffort(pod);
      case 'NotBestEffort': return !isBestEffort(pod);
      case 'PriorityClass': return priorityClassMatches(pod, sel);
      case 'CrossNamespacePodAffinity': return usesCrossNamespacePodAffinity(pod);
      default: return false;
    }
  }

  usage(pod: KubeObject, now?: number): ResourceList {
    const count: ResourceList = new Map([[podCount, Quantity.fromInt(1)]]);
    if (!podIsCharged(pod, now)) return count;
    return add(count, computeUsage(podResourceTotals(pod, 'requests'), podResourceTotals(pod, 'limits')));
  }

  constraints(required: string[], pod: KubeObject): string | undefined {
    const requiredSet = required.filter((r) => validationSet.has(r));
    if (requiredSet.length === 0) return undefined;
    const missing = new Map<string, Set<string>>();
    for (const c of [...containers(pod, 'containers'), ...containers(pod, 'initContainers')]) {
      const has = computeUsage(parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits));
      for (const r of requiredSet) {
        if (has.has(r)) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(c.name ?? '');
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  }
}
