// Objects every cluster has from its first start. Several replicas may start at once:
// each creates what is missing and treats AlreadyExists as success.
import { AdmissionChain } from '../admission/interfaces.js';
import { StatusError } from '../runtime/errors.js';
import type { StoreRegistry } from '../registry/generic/registry.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function ensureSystemNamespaces(registry: StoreRegistry): Promise<void> {
  const store = registry.store('', 'namespaces');
  const scope = { user: { name: 'system:apiserver', groups: ['system:masters'] }, dryRun: false, admission: new AdmissionChain() };
  for (const name of systemNamespaces) {
    try {
      await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, scope);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
    }
  }
}
