// Empties a terminating namespace: every namespaced object of every resource the server
// serves is deleted (in the background, as upstream), what remains is counted for the
// conditions, and once nothing is left the "kubernetes" finalizer is removed through
// the finalize subresource (which deletes the namespace when no finalizer is left).
import { StatusError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import type { ResourceDef, Scheme } from '../../runtime/scheme.js';
import type { RequestScope } from '../../registry/generic/store.js';
import type { StoreRegistry } from '../../registry/generic/registry.js';
import { conditionsFor, updateConditions, type ContentReport } from './conditions.js';
import { controllerUser as controllerUserFor, internalScope } from '../../registry/generic/internal-scope.js';

export const FinalizerKubernetes = 'kubernetes';
/** Upstream waits this long before looking again at content that has finalizers. */
export const finalizerEstimateSeconds = 15;

const controllerUser = controllerUserFor('namespace-controller');

function scope(subresource?: string): RequestScope {
  return internalScope(controllerUser, 'kube-controller-manager', { subresource });
}

function specFinalizers(ns: KubeObject): string[] {
  const spec = isPlainObject(ns.spec) ? ns.spec : {};
  return Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
}

function phaseOf(ns: KubeObject): string {
  return isPlainObject(ns.status) && typeof ns.status.phase === 'string' ? ns.status.phase : '';
}

/** The namespaced resources a namespace's deletion sweeps: each served resource at its preferred version. */
export function namespacedResources(scheme: Scheme): ResourceDef[] {
  return scheme.resources().filter((def) => def.namespaced && !def.virtual && def.verbs.includes('delete')
    && scheme.resourceInGroup(def.group, def.plural) === def);
}

export class NamespacedResourcesDeleter {
  constructor(private readonly scheme: Scheme, private readonly registry: StoreRegistry) {}

  /** One pass. Returns seconds to wait before the next look (0: nothing left to do). */
  async sync(name: string): Promise<number> {
    const namespaces = this.registry.store('', 'namespaces');
    let ns: KubeObject;
    try {
      ns = await namespaces.get('', name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return 0;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return 0;
    if (phaseOf(ns) !== 'Terminating') ns = await this.updateStatus(name, (s) => { s.status = { ...(isPlainObject(s.status) ? s.status : {}), phase: 'Terminating' }; }) ?? ns;
    if (!specFinalizers(ns).includes(FinalizerKubernetes)) return 0;
    const report = await this.deleteAllContent(name);
    await this.updateStatus(name, (s) => { updateConditions(s, conditionsFor(report)); });
    if (report.deleteErrors.length > 0) throw new Error(report.deleteErrors.join('; '));
    const remaining = [...report.remainingByResource.values()].some((n) => n > 0);
    if (remaining) return finalizerEstimateSeconds;
    await this.finalize(name);
    return 0;
  }

  private async deleteAllContent(namespace: string): Promise<ContentReport> {
    const report: ContentReport = { remainingByResource: new Map(), remainingByFinalizer: new Map(), deleteErrors: [] };
    for (const def of namespacedResources(this.scheme)) {
      const store = this.registry.storeFor(def);
      try {
        await store.deleteCollection(namespace, {}, { propagationPolicy: 'Background' }, scope());
        const left = await store.list(namespace, {});
        if (left.items.length === 0) continue;
        report.remainingByResource.set(`${def.plural}.${def.group}`, left.items.length);
        for (const item of left.items) {
          for (const f of item.metadata.finalizers ?? []) report.remainingByFinalizer.set(f, (report.remainingByFinalizer.get(f) ?? 0) + 1);
        }
        if (left.items.every((i) => (i.metadata.finalizers ?? []).length === 0)) {
          report.deleteErrors.push(`unexpected items still remain in namespace: ${namespace} for gvr: ${def.group}/${def.version}, Resource=${def.plural}`);
        }
      } catch (err) {
        report.deleteErrors.push((err as Error).message);
      }
    }
    return report;
  }

  /** Changes the namespace through its status subresource; undefined when it is gone. */
  private async updateStatus(name: string, change: (ns: KubeObject) => void): Promise<KubeObject | undefined> {
    return this.write(name, 'status', change);
  }

  private async finalize(name: string): Promise<void> {
    await this.write(name, 'finalize', (ns) => {
      const spec = isPlainObject(ns.spec) ? ns.spec : {};
      ns.spec = { ...spec, finalizers: specFinalizers(ns).filter((f) => f !== FinalizerKubernetes) };
    });
  }

  private async write(name: string, subresource: string, change: (ns: KubeObject) => void): Promise<KubeObject | undefined> {
    const store = this.registry.store('', 'namespaces');
    try {
      const res = await store.update('', name, async (current) => {
        if (!current) throw new StatusError(404, 'NotFound', 'gone');
        const next = structuredClone(current);
        change(next);
        return next;
      }, scope(subresource));
      return res.object;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }
}
