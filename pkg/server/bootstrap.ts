// Objects every cluster has from its first start, written as upstream's post-start hooks
// write them: as system:apiserver, through admission. Several replicas may
// start at once: each lists first and creates only what is missing (so a replica whose
// admission refuses writes, AlwaysDeny, still starts on a populated cluster), treating
// AlreadyExists as success. Objects of one kind are written concurrently: on a fresh
// etcd each write waits for a disk sync, and etcd syncs concurrent writes together.
import type { Client, ResourceClient } from '../client/interfaces.js';
import { listed, objectKey } from '../client/listed.js';
import { updateWithRetry } from '../client/retry.js';
import { StatusError } from '../runtime/errors.js';
import { systemPriorityClasses } from '../registry/scheduling/priorityclasses/strategy.js';
import { isLocalAvailable, localAPIServices, localAvailableStatus } from '../registry/apiregistration/apiservices/local.js';
import type { KubeObject } from '../runtime/object.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { nowTimestamp } from '../registry/generic/names.js';
import { concurrently } from '../util/concurrently.js';
import { bootstrapConcurrency } from '../bootstrappolicy/reconcile.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/**
 * Creates `obj` unless `existing` (one list of the kind) has it: the object as listed or
 * created (undefined when another replica created it first), and whether it was there.
 */
async function createIfMissing(rc: ResourceClient, obj: KubeObject, existing: Map<string, KubeObject>): Promise<{ obj?: KubeObject; existed: boolean }> {
  const found = existing.get(objectKey(obj));
  if (found) return { obj: found, existed: true };
  try {
    return { obj: await rc.create('', obj), existed: false };
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 409)) throw err;
    return { existed: true };
  }
}

export async function ensureSystemNamespaces(api: Client): Promise<void> {
  const namespaces = api.resource('', 'namespaces', 'v1');
  const existing = await listed(namespaces, '', 'v1', 'Namespace');
  await Promise.all(systemNamespaces.map((name) => createIfMissing(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, existing)));
}

/** system-node-critical and system-cluster-critical (upstream's scheduling post-start hook). */
export async function ensureSystemPriorityClasses(api: Client): Promise<void> {
  const priorityClasses = api.resource('scheduling.k8s.io', 'priorityclasses', 'v1');
  const existing = await listed(priorityClasses, '', 'scheduling.k8s.io/v1', 'PriorityClass');
  await Promise.all(systemPriorityClasses.map((pc) => createIfMissing(priorityClasses, structuredClone(pc), existing)));
}

/**
 * An APIService per served group version, marked available ("Local"), as upstream's
 * autoregister controller keeps them. An existing object keeps its metadata; its spec
 * and status are brought back to what this server serves.
 */
export async function ensureLocalAPIServices(api: Client, scheme: ResourceScheme): Promise<void> {
  const apiServices = api.resource('apiregistration.k8s.io', 'apiservices', 'v1');
  const existing = await listed(apiServices, '', 'apiregistration.k8s.io/v1', 'APIService');
  // One per group version, each independent: all at once rather than one after another.
  await concurrently(localAPIServices(scheme), bootstrapConcurrency, async (desired) => {
    const name = desired.metadata.name!;
    const { obj, existed } = await createIfMissing(apiServices, desired, existing);
    let current = obj;
    if (existed) {
      current = await updateWithRetry(apiServices, '', name, (c) => {
        if (sameJson(c.spec, desired.spec)) return false;
        c.spec = desired.spec;
      }, { current });
    }
    await updateWithRetry(apiServices, '', name, (c) => {
      if (isLocalAvailable(c)) return false;
      c.status = localAvailableStatus(nowTimestamp());
    }, { subresource: 'status', current });
  });
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
