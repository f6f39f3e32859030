// LimitRanger: the namespace's LimitRange objects give new pods' containers their default
// limits and requests (noted in the kubernetes.io/limit-ranger annotation), then bound
// containers, whole pods and claims by min, max and maxLimitRequestRatio. Pod updates are
// skipped, as upstream skips them: containers cannot change after create anyway.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import type { ObjectSource } from '../../source.js';
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';
import type { KubeObject } from '../../../runtime/object.js';
import { add, canonical, parse, canonicalQuantity, type Quantity } from '../../../apis/core/exact-quantity.js';

export const pluginName = 'LimitRanger';
export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

/** How long an empty live lookup stands in for the cache (upstream's liveTTL). */
const liveTTLMs = 30_000;

type ResourceList = Record<string, unknown>;

export class LimitRanger implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/pods', '/persistentvolumeclaims']);
  private readonly liveEmpty = new Map<string, number>();

  constructor(private readonly limitRanges: ObjectSource, private readonly now: () => number = Date.now) {}

  handles(op: Operation): boolean { return op === 'CREATE' || op === 'UPDATE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (!supports(a) || a.resource !== 'pods') return;
    for (const lr of await this.rangesFor(a)) mutatePod(lr, a.object!);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!supports(a)) return;
    for (const lr of await this.rangesFor(a)) {
      const errs = a.resource === 'pods' ? validatePod(lr, a.object!) : validateClaim(lr, a.object!);
      if (errs.length > 0) throw admissionForbidden(a, aggregate(errs));
    }
  }

  /**
   * The namespace's LimitRanges from the cache; when it has none, from storage (the cache
   * may not have seen one just created), remembering an empty answer for a while.
   */
  private async rangesFor(a: AdmissionAttributes): Promise<KubeObject[]> {
    const cached = await this.limitRanges.list(a.namespace);
    if (cached.length > 0) return cached;
    const emptyUntil = this.liveEmpty.get(a.namespace);
    if (emptyUntil !== undefined && emptyUntil > this.now()) return [];
    const live = await this.limitRanges.liveList(a.namespace);
    if (live.length === 0) this.liveEmpty.set(a.namespace, this.now() + liveTTLMs);
    else this.liveEmpty.delete(a.namespace);
    return live;
  }
}

function supports(a: AdmissionAttributes): boolean {
  if (a.subresource !== '' || a.group !== '' || !a.object) return false;
  if (a.oldObject?.metadata.deletionTimestamp) return false;
  if (a.resource === 'pods') return a.operation === 'CREATE';
  return a.resource === 'persistentvolumeclaims';
}

function limitItems(lr: KubeObject): Obj[] {
  return arr(obj(lr.spec)?.limits);
}

function list(v: unknown): ResourceList {
  return obj(v) ?? {};
}

/** Default limits and requests from every Container item of the LimitRange. */
function mutatePod(lr: KubeObject, pod: KubeObject): void {
  const defaults: { requests: ResourceList; limits: ResourceList } = { requests: {}, limits: {} };
  for (const item of limitItems(lr)) {
    if (item.type !== 'Container') continue;
    Object.assign(defaults.requests, list(item.defaultRequest));
    Object.assign(defaults.limits, list(item.default));
  }
  const spec = obj(pod.spec) ?? {};
  const notes: string[] = [];
  for (const [field, label] of [['containers', 'container'], ['initContainers', 'init container']] as const) {
    for (const c of arr(spec[field])) notes.push(...mergeDefaults(c, defaults, label));
  }
  if (notes.length === 0) return;
  pod.metadata.annotations = { ...pod.metadata.annotations, [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

function mergeDefaults(c: Obj, defaults: { requests: ResourceList; limits: ResourceList }, label: string): string[] {
  const res = obj(c.resources) ?? {};
  c.resources = res;
  const limits = list(res.limits);
  const requests = list(res.requests);
  const setLimits = Object.keys(defaults.limits).filter((k) => limits[k] === undefined);
  const setRequests = Object.keys(defaults.requests).filter((k) => requests[k] === undefined);
  for (const k of setLimits) limits[k] = canonicalQuantity(defaults.limits[k]);
  for (const k of setRequests) requests[k] = canonicalQuantity(defaults.requests[k]);
  if (setLimits.length > 0) res.limits = limits;
  if (setRequests.length > 0) res.requests = requests;
  const notes: string[] = [];
  const name = str(c.name);
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${label} ${name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${label} ${name}`);
  return notes;
}

function validatePod(lr: KubeObject, pod: KubeObject): string[] {
  const errs: string[] = [];
  const spec = obj(pod.spec) ?? {};
  for (const item of limitItems(lr)) {
    const type = str(item.type);
    if (type === 'Container') {
      for (const c of [...arr(spec.containers), ...arr(spec.initContainers)]) {
        const res = obj(c.resources) ?? {};
        errs.push(...checkItem(item, type, list(res.requests), list(res.limits)));
      }
    } else if (type === 'Pod') {
      errs.push(...checkItem(item, type, podRequests(spec), podLimits(spec)));
    }
  }
  return errs;
}

/** A claim's limits are not user input: max bounds what it requests. */
function validateClaim(lr: KubeObject, pvc: KubeObject): string[] {
  const errs: string[] = [];
  const requests = list(obj(obj(pvc.spec)?.resources)?.requests);
  for (const item of limitItems(lr)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sorted(item.min)) push(errs, minConstraint('PersistentVolumeClaim', k, v, requests, {}));
    for (const [k, v] of sorted(item.max)) push(errs, maxRequestConstraint('PersistentVolumeClaim', k, v, requests));
  }
  return errs;
}

function checkItem(item: Obj, type: string, requests: ResourceList, limits: ResourceList): string[] {
  const errs: string[] = [];
  for (const [k, v] of sorted(item.min)) push(errs, minConstraint(type, k, v, requests, limits));
  for (const [k, v] of sorted(item.max)) push(errs, maxConstraint(type, k, v, requests, limits));
  for (const [k, v] of sorted(item.maxLimitRequestRatio)) push(errs, ratioConstraint(type, k, v, requests, limits));
  return errs;
}

// Go ranges over these maps in random order; sorted keys keep messages stable.
function sorted(v: unknown): Array<[string, Quantity]> {
  return Object.entries(list(v)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([k, q]) => { const p = parse(q); return p ? [[k, p] as [string, Quantity]] : []; });
}

function push(errs: string[], e: string | undefined): void {
  if (e !== undefined) errs.push(e);
}

function lookup(l: ResourceList, k: string): Quantity | undefined {
  return l[k] === undefined ? undefined : parse(l[k]);
}

function minConstraint(type: string, k: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = lookup(requests, k);
  const lim = lookup(limits, k);
  const min = canonical(enforced);
  if (!req) return `minimum ${k} usage per ${type} is ${min}.  No request is specified`;
  if (req.nano < enforced.nano) return `minimum ${k} usage per ${type} is ${min}, but request is ${canonical(req)}`;
  if (lim && lim.nano < enforced.nano) return `minimum ${k} usage per ${type} is ${min}, but limit is ${canonical(lim)}`;
  return undefined;
}

function maxConstraint(type: string, k: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = lookup(requests, k);
  const lim = lookup(limits, k);
  const max = canonical(enforced);
  if (!lim) return `maximum ${k} usage per ${type} is ${max}.  No limit is specified`;
  if (lim.nano > enforced.nano) return `maximum ${k} usage per ${type} is ${max}, but limit is ${canonical(lim)}`;
  if (req && req.nano > enforced.nano) return `maximum ${k} usage per ${type} is ${max}, but request is ${canonical(req)}`;
  return undefined;
}

function maxRequestConstraint(type: string, k: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = lookup(requests, k);
  const max = canonical(enforced);
  if (!req) return `maximum ${k} usage per ${type} is ${max}.  No request is specified`;
  if (req.nano > enforced.nano) return `maximum ${k} usage per ${type} is ${max}, but request is ${canonical(req)}`;
  return undefined;
}

function ratioConstraint(type: string, k: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = lookup(requests, k);
  const lim = lookup(limits, k);
  const max = canonical(enforced);
  if (!req || req.nano === 0n) return `${k} max limit to request ratio per ${type} is ${max}, but no request is specified or request is 0`;
  if (!lim || lim.nano === 0n) return `${k} max limit to request ratio per ${type} is ${max}, but no limit is specified or limit is 0`;
  const ratio = Number(lim.nano) / Number(req.nano);
  if (ratio * 1e9 > Number(enforced.nano)) {
    return `${k} max limit to request ratio per ${type} is ${max}, but provided ratio is ${ratio.toFixed(6)}`;
  }
  return undefined;
}

/**
 * What the pod as a whole asks for: the containers' sum, or the largest init container if
 * more (sidecars, restartPolicy Always, run alongside and add up), plus the overhead.
 */
function podRequests(spec: Obj): ResourceList {
  return podTotal(spec, 'requests', false);
}

/** The same for limits; the overhead only adds to resources that have a limit. */
function podLimits(spec: Obj): ResourceList {
  return podTotal(spec, 'limits', true);
}

function podTotal(spec: Obj, which: 'requests' | 'limits', overheadOnlyWhereSet: boolean): ResourceList {
  const of = (c: Obj) => list(obj(c.resources)?.[which]);
  const total = new Map<string, Quantity>();
  const addTo = (m: Map<string, Quantity>, l: ResourceList) => {
    for (const [k, v] of Object.entries(l)) {
      const q = parse(v);
      if (!q) continue;
      const cur = m.get(k);
      m.set(k, cur ? add(cur, q) : q);
    }
  };
  const maxInto = (m: Map<string, Quantity>, from: Map<string, Quantity>) => {
    for (const [k, q] of from) {
      const cur = m.get(k);
      if (!cur || q.nano > cur.nano) m.set(k, q);
    }
  };
  for (const c of arr(spec.containers)) addTo(total, of(c));
  const sidecars = new Map<string, Quantity>();
  const initMax = new Map<string, Quantity>();
  for (const c of arr(spec.initContainers)) {
    if (c.restartPolicy === 'Always') {
      addTo(total, of(c));
      addTo(sidecars, of(c));
      maxInto(initMax, sidecars);
    } else {
      const running = new Map(sidecars);
      addTo(running, of(c));
      maxInto(initMax, running);
    }
  }
  maxInto(total, initMax);
  const overhead = list(spec.overhead);
  for (const [k, v] of Object.entries(overhead)) {
    const q = parse(v);
    if (!q || (overheadOnlyWhereSet && !total.has(k))) continue;
    const cur = total.get(k);
    total.set(k, cur ? add(cur, q) : q);
  }
  return Object.fromEntries([...total].map(([k, q]) => [k, canonical(q)]));
}

/** utilerrors.NewAggregate's text: one message as is, several distinct ones bracketed. */
function aggregate(errs: string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
