// The resource quota controller (upstream's resourcequota controller): every quota's
// status.hard follows spec.hard and status.used is recomputed from the objects in the
// namespace. It runs when a quota is made or its spec changes, when an object is
// deleted or its usage changes (replenishment), and every resync period, which also
// takes back charges admission made for requests that a later step refused. Status is
// written with a compare-and-swap on the quota's resourceVersion read before counting,
// so a charge admission makes meanwhile is never overwritten.
//
// A charge lands on the quota before its object is stored, so a count taken right after
// a charge can miss that object and hand the unit out twice. A quota is therefore only
// recounted once its usage has been quiet for a few seconds; admission charging it
// schedules such a recount, which is how an overcharge (a request refused after quota
// admitted it) is given back within seconds rather than at the next resync.
import { EvaluatorRegistry } from '../../quota/evaluator/registry.js';
import type { Evaluator } from '../../quota/evaluator/interfaces.js';
import { parseObjectCountName } from '../../quota/evaluator/objectcount.js';
import { enforcedHard, scopeSelectorsOf } from '../../quota/quota.js';
import { equals, mask, parseResourceList, toJSONResourceList } from '../../quota/resources.js';
import { calculateUsage, type Measured } from '../../quota/usage.js';
import { StatusError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue, keyOf } from '../workqueue.js';

/** kube-controller-manager's --resource-quota-sync-period default. */
const resyncPeriodMs = 5 * 60_000;
/** How long a quota's usage must be unchanged before it is recounted. */
export const quietPeriodMs = 5_000;

export function resourceQuotaController(d: ControllerContext): Controller {
  const registry = new EvaluatorRegistry();
  const quotas = d.informers.informerFor('', 'resourcequotas');
  const client = d.client('resourcequota-controller');
  const quotaApi = client.resource('', 'resourcequotas');
  const watched = new Set<string>();
  /** When each quota's status.used last changed, as this replica saw it. */
  const lastCharged = new Map<string, number>();
  /** Namespaces with a recount scheduled; a burst of charges schedules one, not one each. */
  const scheduled = new Map<string, NodeJS.Timeout>();
  let queue: KeyedQueue | undefined;

  const recountAfter = (namespace: string, delayMs: number) => {
    if (scheduled.has(namespace)) return;
    const t = setTimeout(() => { scheduled.delete(namespace); queue?.add(namespace); }, Math.max(0, delayMs));
    t.unref();
    scheduled.set(namespace, t);
  };

  const enqueue = (obj: KubeObject) => { if (obj.metadata.namespace) queue?.add(obj.metadata.namespace); };

  /**
   * Replenishment: a deleted object, or one whose charge changed, frees or moves usage, for
   * a quota of its namespace that tracks its kind (as upstream, known from the informer:
   * an object deleted where no quota counts it costs no recount and no list).
   */
  const watch = (e: Evaluator) => {
    const key = `${e.group}/${e.resource}`;
    if (watched.has(key)) return;
    watched.add(key);
    const tracked = (obj: KubeObject): boolean => {
      const ns = obj.metadata.namespace;
      return Boolean(ns) && quotas.list(ns!).some((q) => e.matchingResources([...enforcedHard(q).keys()]).length > 0);
    };
    d.informers.informerFor(e.group, e.resource).addHandlers({
      delete: (obj) => { if (tracked(obj)) enqueue(obj); },
      // Usage only where a quota counts it: a pod's (requests and limits of every
      // container, parsed) was 3% of a leading replica's allocations under the cluster
      // load, whose namespaces have no quota.
      update: (obj, old) => { if (tracked(obj) && !equals(e.usage(obj), e.usage(old))) enqueue(obj); },
    });
  };

  const served = (group: string, resource: string) => d.scheme.resourceInGroup(group, resource) !== undefined;

  const evaluatorsFor = (hardNames: string[]): Evaluator[] => {
    const out = registry.builtIn();
    for (const n of hardNames) {
      const gr = parseObjectCountName(n);
      if (gr && served(gr.group, gr.resource) && !registry.isIgnored(gr.group, gr.resource)) {
        const e = registry.get(gr.group, gr.resource);
        if (!out.includes(e)) out.push(e);
      }
    }
    return out;
  };

  const sync = async (namespace: string): Promise<void> => {
    const list = (await quotaApi.list(namespace)).items as KubeObject[];
    const objects = new Map<Evaluator, Promise<KubeObject[]>>();
    const objectsOf = (e: Evaluator) => {
      let p = objects.get(e);
      if (!p) {
        p = client.resource(e.group, e.resource).list(namespace).then((l) => l.items as KubeObject[]);
        objects.set(e, p);
      }
      return p;
    };
    let deferUntil = 0;
    for (const quota of list) {
      const charged = lastCharged.get(keyOf(quota.metadata)) ?? 0;
      if (!needsSync(quota) && Date.now() - charged < quietPeriodMs) {
        deferUntil = Math.max(deferUntil, charged + quietPeriodMs);
        continue;
      }
      const spec = isPlainObject(quota.spec) ? quota.spec : {};
      const status = isPlainObject(quota.status) ? quota.status : {};
      const hard = parseResourceList(spec.hard);
      const hardNames = [...hard.keys()];
      const measured: Measured[] = [];
      for (const e of evaluatorsFor(hardNames)) {
        if (e.matchingResources(hardNames).length === 0) continue;
        if (queue) watch(e);
        measured.push({ evaluator: e, objects: await objectsOf(e) });
      }
      // Usage no evaluator measures keeps its last observation, as upstream.
      const used = mask(new Map([...parseResourceList(status.used), ...calculateUsage(hardNames, scopeSelectorsOf(quota), measured)]), hardNames);
      const oldHard = parseResourceList(status.hard);
      if (equals(oldHard, hard) && equals(parseResourceList(status.used), used) && status.hard !== undefined && status.used !== undefined) continue;
      // The PUT carries the resourceVersion counted at: a charge made meanwhile conflicts (409).
      await quotaApi.update(namespace, { ...quota, status: { hard: toJSONResourceList(hard), used: toJSONResourceList(used) } }, { subresource: 'status' }).catch((err) => {
        // A deleted quota needs nothing; a conflict is retried from a fresh count.
        if (err instanceof StatusError && err.code === 404) return;
        throw err;
      });
    }
    if (deferUntil > 0) recountAfter(namespace, deferUntil - Date.now() + 50);
  };

  const needsSync = (q: KubeObject): boolean => {
    const spec = isPlainObject(q.spec) ? q.spec : {};
    const status = isPlainObject(q.status) ? q.status : {};
    if (!isPlainObject(status.hard) || !isPlainObject(status.used)) return true;
    const hard = parseResourceList(spec.hard);
    return !equals(hard, parseResourceList(status.hard)) || [...hard.keys()].some((k) => !(k in (status.used as object)));
  };

  return {
    name: 'resourcequota',
    start() {
      const q = new KeyedQueue(sync, (ns, err) => d.log.warn({ controller: 'resourcequota', namespace: ns, err: (err as Error).message }, 'sync failed'));
      queue = q;
      if (watched.size === 0) {
        quotas.addHandlers({
          add: enqueue,
          update: (obj, old) => {
            if (needsSync(obj) || JSON.stringify(obj.spec) !== JSON.stringify(old.spec)) {
              enqueue(obj);
            } else if (JSON.stringify((obj.status as { used?: unknown } | undefined)?.used) !== JSON.stringify((old.status as { used?: unknown } | undefined)?.used)) {
              lastCharged.set(keyOf(obj.metadata), Date.now());
              if (obj.metadata.namespace) recountAfter(obj.metadata.namespace, quietPeriodMs + 50);
            }
          },
          delete: (obj) => { lastCharged.delete(keyOf(obj.metadata)); },
        });
        for (const e of registry.builtIn()) watch(e);
      } else {
        for (const quota of quotas.list()) enqueue(quota);
      }
      const resync = setInterval(() => { for (const quota of quotas.list()) enqueue(quota); }, resyncPeriodMs);
      resync.unref();
      return () => {
        clearInterval(resync);
        for (const t of scheduled.values()) clearTimeout(t);
        scheduled.clear();
        q.stop();
        if (queue === q) queue = undefined;
      };
    },
  };
}
