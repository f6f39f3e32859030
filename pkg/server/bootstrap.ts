// Objects every cluster has from its first start. Several replicas may start at once:
// each creates what is missing and treats AlreadyExists as success.
import { StatusError } from '../runtime/errors.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import { apiserverUser, internalScope } from '../registry/generic/internal-scope.js';
import { systemPriorityClasses } from '../registry/scheduling/priorityclasses/strategy.js';

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
