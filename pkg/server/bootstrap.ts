// Objects every cluster has from its first start, written as upstream's post-start hooks
// write them: through the loopback client, so admission sees them. Several replicas may
// start at once: each reads first and creates only what is missing (so a replica whose
// admission refuses writes, AlwaysDeny, still starts on a populated cluster), treating
// AlreadyExists as success.
import type { Client, ResourceClient } from '../client/interfaces.js';
import { isNotFound, updateWithRetry } from '../client/retry.js';
import { StatusError } from '../runtime/errors.js';
import { systemPriorityClasses } from '../registry/scheduling/priorityclasses/strategy.js';
import { isLocalAvailable, localAPIServices, localAvailableStatus } from '../registry/apiregistration/apiservices/local.js';
import type { KubeObject } from '../runtime/object.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { nowTimestamp } from '../registry/generic/names.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Creates `obj` unless it exists; true when it was already there. */
async function createIfMissing(rc: ResourceClient, obj: KubeObject): Promise<boolean> {
  try {
    await rc.get('', obj.metadata.name!);
    return true;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await rc.create('', obj);
    return false;
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 409)) throw err;
    return true;
  }
}

export async function ensureSystemNamespaces(api: Client): Promise<void> {
  const namespaces = api.resource('', 'namespaces', 'v1');
  for (const name of systemNamespaces) await createIfMissing(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** system-node-critical and system-cluster-critical (upstream's scheduling post-start hook). */
export async function ensureSystemPriorityClasses(api: Client): Promise<void> {
  const priorityClasses = api.resource('scheduling.k8s.io', 'priorityclasses');
  for (const pc of systemPriorityClasses) await createIfMissing(priorityClasses, structuredClone(pc));
}

/**
 * An APIService per served group version, marked available ("Local"), as upstream's
 * autoregister controller keeps them. An existing object keeps its metadata; its spec
 * and status are brought back to what this server serves.
 */
export async function ensureLocalAPIServices(api: Client, scheme: ResourceScheme): Promise<void> {
  const apiServices = api.resource('apiregistration.k8s.io', 'apiservices');
  for (const desired of localAPIServices(scheme)) {
    const name = desired.metadata.name!;
    if (await createIfMissing(apiServices, desired)) {
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

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
