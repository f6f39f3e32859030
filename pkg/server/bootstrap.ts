// Objects every cluster has from its first start. Several replicas may start at once:
// each creates what is missing and treats AlreadyExists as success.
import { StatusError } from '../runtime/errors.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import { apiserverUser, internalScope } from '../registry/generic/internal-scope.js';
import { systemPriorityClasses } from '../registry/scheduling/priorityclasses/strategy.js';
import { localAPIServices, localAvailableStatus } from '../registry/apiregistration/apiservices/local.js';
import { isPlainObject, type KubeObject } from '../runtime/object.js';
import type { Scheme } from '../runtime/scheme.js';
import { nowTimestamp } from '../registry/generic/names.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function ensureSystemNamespaces(registry: StoreRegistry): Promise<void> {
  const store = registry.store('', 'namespaces');
  const scope = internalScope(apiserverUser, 'kube-apiserver');
  for (const name of systemNamespaces) {
    try {
      await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, scope);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
    }
  }
}

/** system-node-critical and system-cluster-critical (upstream's scheduling post-start hook). */
export async function ensureSystemPriorityClasses(registry: StoreRegistry): Promise<void> {
  const store = registry.store('scheduling.k8s.io', 'priorityclasses');
  const scope = internalScope(apiserverUser, 'kube-apiserver');
  for (const pc of systemPriorityClasses) {
    try {
      const obj = structuredClone(pc);
      store.def.strategy.applyDefaults(obj);
      await store.create('', obj, scope);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
    }
  }
}

/**
 * An APIService per served group version, marked available ("Local"), as upstream's
 * autoregister controller keeps them. An existing object keeps its metadata; its spec
 * and status are brought back to what this server serves.
 */
export async function ensureLocalAPIServices(registry: StoreRegistry, scheme: Scheme): Promise<void> {
  const store = registry.store('apiregistration.k8s.io', 'apiservices');
  const scope = internalScope(apiserverUser, 'kube-apiserver');
  const statusScope = { ...scope, subresource: 'status' };
  for (const desired of localAPIServices(scheme)) {
    const name = desired.metadata.name!;
    try {
      await store.create('', desired, scope);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
      await store.update('', name, async (current) => (current && !sameJson(current.spec, desired.spec)
        ? { ...current, spec: desired.spec } : current) as KubeObject, scope);
    }
    await store.update('', name, async (current) => {
      if (!current || isLocalAvailable(current)) return current as KubeObject;
      return { ...current, status: localAvailableStatus(nowTimestamp()) };
    }, statusScope);
  }
}

function isLocalAvailable(o: KubeObject): boolean {
  const conditions = isPlainObject(o.status) && Array.isArray(o.status.conditions) ? o.status.conditions : [];
  return conditions.some((c) => isPlainObject(c) && c.type === 'Available' && c.status === 'True' && c.reason === 'Local');
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
