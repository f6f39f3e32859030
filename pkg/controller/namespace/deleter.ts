// Empties a terminating namespace: every namespaced object of every resource the server
// serves is deleted (in the background, as upstream), what remains is counted for the
// conditions, and once nothing is left the "kubernetes" finalizer is removed through
// the finalize subresource (which deletes the namespace when no finalizer is left).
import type { Client, ResourceClient } from '../../client/interfaces.js';
import { isNotFound, updateWithRetry } from '../../client/retry.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { conditionsFor, updateConditions, type ContentReport } from './conditions.js';

export const FinalizerKubernetes = 'kubernetes';
/** Upstream waits this long before looking again at content that has finalizers. */
export const finalizerEstimateSeconds = 15;

function specFinalizers(ns: KubeObject): string[] {
  const spec = isPlainObject(ns.spec) ? ns.spec : {};
  return Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
}

function phaseOf(ns: KubeObject): string {
  return isPlainObject(ns.status) && typeof ns.status.phase === 'string' ? ns.status.phase : '';
}

/** The namespaced resources a namespace's deletion sweeps: each served resource at its preferred version. */
export function namespacedResources(scheme: ResourceScheme): ResourceDef[] {
  return scheme.resources().filter((def) => def.namespaced && !def.virtual && def.verbs.includes('delete')
    && scheme.resourceInGroup(def.group, def.plural) === def);
}

export class NamespacedResourcesDeleter {
  private readonly namespaces: ResourceClient;

  constructor(private readonly scheme: ResourceScheme, private readonly client: Client) {
    this.namespaces = client.resource('', 'namespaces');
  }

  /** One pass. Returns seconds to wait before the next look (0: nothing left to do). */
  async sync(name: string): Promise<number> {
    let ns: KubeObject;
    try {
      ns = await this.namespaces.get('', name);
    } catch (err) {
      if (isNotFound(err)) return 0;
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
      const rc = this.client.resource(def.group, def.plural, def.version);
      try {
        await deleteAll(rc, def, namespace);
        const left = await rc.list(namespace);
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
    try {
      return await updateWithRetry(this.namespaces, '', name, change, { subresource });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}

/** Background deletion of a namespace's objects of one resource; one by one where deletecollection is not served. */
async function deleteAll(rc: ResourceClient, def: ResourceDef, namespace: string): Promise<void> {
  const options = { propagationPolicy: 'Background' as const };
  if (def.verbs.includes('deletecollection')) {
    await rc.deleteCollection(namespace, {}, options);
    return;
  }
  for (const item of (await rc.list(namespace)).items) {
    try {
      await rc.delete(namespace, item.metadata.name ?? '', options);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
