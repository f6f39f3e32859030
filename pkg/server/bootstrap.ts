// Objects every cluster has from its first start. Several replicas may start at once:
// each creates what is missing and treats AlreadyExists as success.
import { StatusError } from '../runtime/errors.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import { apiserverUser, internalScope } from '../registry/generic/internal-scope.js';

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
