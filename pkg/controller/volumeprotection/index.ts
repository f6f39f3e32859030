// Upstream's pvc-protection and pv-protection controllers, the other half of the
// StorageObjectInUseProtection admission plugin: a claim or volume keeps its protection
// finalizer while it exists, and loses it once it is being deleted and nothing uses it
// any more: no scheduled, unfinished pod mounts the claim; the volume is not Bound.
import type { Informer } from '../../client/informer.js';
import type { ResourceClient } from '../../client/interfaces.js';
import { updateWithRetry } from '../../client/retry.js';
import { StatusError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';
import { pvcProtectionFinalizer, pvProtectionFinalizer } from '../../admission/plugins/storageobjectinuseprotection/index.js';

const objKey = (o: KubeObject): string => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name ?? '');

const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return i < 0 ? ['', key] : [key.slice(0, i), key.slice(i + 1)];
};

/** The claims a pod's volumes name: persistentVolumeClaim volumes, and generic ephemeral ones (`<pod>-<volume>`). */
export function claimsOfPod(pod: KubeObject): string[] {
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const volumes = Array.isArray(spec.volumes) ? spec.volumes as Array<Record<string, unknown>> : [];
  const out: string[] = [];
  for (const v of volumes) {
    if (isPlainObject(v.persistentVolumeClaim) && typeof v.persistentVolumeClaim.claimName === 'string') out.push(v.persistentVolumeClaim.claimName);
    else if (isPlainObject(v.ephemeral)) out.push(`${pod.metadata.name}-${String(v.name)}`);
  }
  return out;
}

/** A pod blocks a claim's removal once scheduled (the kubelet may be mounting it) and until it has finished. */
export function podUsesClaim(pod: KubeObject, claim: string): boolean {
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const phase = isPlainObject(pod.status) ? pod.status.phase : undefined;
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return false;
  return claimsOfPod(pod).includes(claim);
}

/**
 * Keeps `finalizer` on every live object of `objects`; takes it off a deleting object
 * once `inUse` says nothing needs it.
 */
function protectionController(name: string, d: ControllerContext, finalizer: string, objects: Informer, api: ResourceClient,
  inUse: (obj: KubeObject) => Promise<boolean>, extraTriggers?: (enqueue: (key: string) => void) => void): Controller {
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;

  const sync = async (key: string): Promise<void> => {
    const [namespace, objName] = splitKey(key);
    const obj = objects.get(namespace, objName);
    if (!obj) return;
    const has = (obj.metadata.finalizers ?? []).includes(finalizer);
    const deleting = !!obj.metadata.deletionTimestamp;
    let change: ((f: string[]) => string[]) | undefined;
    if (!deleting && !has) change = (f) => (f.includes(finalizer) ? f : [...f, finalizer]);
    else if (deleting && has && !(await inUse(obj))) change = (f) => f.filter((x) => x !== finalizer);
    if (!change) return;
    const apply = change;
    try {
      await updateWithRetry(api, namespace, objName, (latest) => {
        latest.metadata.finalizers = apply(latest.metadata.finalizers ?? []);
      });
    } catch (err) {
      // Gone, or changed meanwhile: the informer's next event brings it back here.
      if (err instanceof StatusError && [404, 409].includes(err.code)) return;
      throw err;
    }
  };

  return {
    name,
    start() {
      const q = new KeyedQueue(sync, (key, err) => d.log.warn({ controller: name, key, err: (err as Error).message }, 'sync failed'));
      queue = q;
      const enqueue = (key: string): void => queue?.add(key);
      if (!handlersAdded) {
        handlersAdded = true;
        const onObj = (o: KubeObject): void => enqueue(objKey(o));
        objects.addHandlers({ add: onObj, update: onObj });
        extraTriggers?.(enqueue);
      }
      // Objects the cache already held when this replica became leader.
      for (const o of objects.list()) q.add(objKey(o));
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}

export function pvcProtectionController(d: ControllerContext): Controller {
  const pods = d.informers.informerFor('', 'pods');
  const claims = d.informers.informerFor('', 'persistentvolumeclaims');
  const client = d.client('pvc-protection-controller');
  const podsApi = client.resource('', 'pods');
  return protectionController('pvc-protection', d, pvcProtectionFinalizer, claims, client.resource('', 'persistentvolumeclaims'),
    async (pvc) => {
      const uses = (p: KubeObject): boolean => podUsesClaim(p, pvc.metadata.name ?? '');
      if (pods.list(pvc.metadata.namespace).some(uses)) return true;
      // The cache may not have a just-scheduled pod yet: storage has the last word, as upstream asks the API server.
      return (await podsApi.list(pvc.metadata.namespace ?? '')).items.some(uses);
    },
    (enqueue) => {
      // A pod going away or finishing may free the claims it names.
      const onPod = (p: KubeObject): void => { for (const c of claimsOfPod(p)) enqueue(`${p.metadata.namespace}/${c}`); };
      pods.addHandlers({ update: onPod, delete: onPod });
    });
}

export function pvProtectionController(d: ControllerContext): Controller {
  const volumes = d.informers.informerFor('', 'persistentvolumes');
  return protectionController('pv-protection', d, pvProtectionFinalizer, volumes, d.client('pv-protection-controller').resource('', 'persistentvolumes'),
    async (pv) => isPlainObject(pv.status) && pv.status.phase === 'Bound');
}
