// Objects every cluster has from its first start, written as upstream's post-start hooks
// write them: through the loopback client, so admission sees them. Several replicas may
// start at once: each creates what is missing and treats AlreadyExists as success.
import type { Client } from '../client/interfaces.js';
import { updateWithRetry } from '../client/retry.js';
import { StatusError } from '../runtime/errors.js';
import { systemPriorityClasses } from '../registry/scheduling/priorityclasses/strategy.js';
import { localAPIServices, localAvailableStatus } from '../registry/apiregistration/apiservices/local.js';
import { isPlainObject, type KubeObject } from '../runtime/object.js';
import type { Scheme } from '../runtime/scheme.js';
import { nowTimestamp } from '../registry/generic/names.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function ensureSystemNamespaces(api: Client): Promise<void> {
  const namespaces = api.resource('', 'namespaces', 'v1');
  for (const name of systemNamespaces) {
    try {
      await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
    }
  }
}

/** system-node-critical and system-cluster-critical (upstream's scheduling post-start hook). */
export async function ensureSystemPriorityClasses(api: Client): Promise<void> {
  const priorityClasses = api.resource('scheduling.k8s.io', 'priorityclasses');
  for (const pc of systemPriorityClasses) {
    try {
      await priorityClasses.create('', structuredClone(pc));
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
export async function ensureLocalAPIServices(api: Client, scheme: Scheme): Promise<void> {
  const apiServices = api.resource('apiregistration.k8s.io', 'apiservices');
  for (const desired of localAPIServices(scheme)) {
    const name = desired.metadata.name!;
    try {
      await apiServices.create('', desired);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
      await updateWithRetry(apiServices, '', name, (current) => {
        if (sameJson(current.spec, desired.spec)) return false;
        current.spec = desired.spec;
      });
    }
    await updateWithRetry(apiServices, '', name, (current) => {
      if (isLocalAvailable(current)) return false;
      current.status = localAvailableStatus(nowTimestamp());
    }, { subresource: 'status' });
  }
}

function isLocalAvailable(o: KubeObject): boolean {
  const conditions = isPlainObject(o.status) && Array.isArray(o.status.conditions) ? o.status.conditions : [];
  return conditions.some((c) => isPlainObject(c) && c.type === 'Available' && c.status === 'True' && c.reason === 'Local');
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
