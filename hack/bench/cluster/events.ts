// The Events a pod's life makes in a v1.28 cluster, for runs with --events: the
// ReplicaSet controller's SuccessfulCreate and kube-scheduler's Scheduled (events.k8s.io/v1,
// the scheduler's recorder in 1.28), then the kubelet's Pulled, Created and Started per
// container and Killing at deletion (core v1, client-go's record package). Recorders send
// them in the background: a slow Event never holds up the pod.
import type { ApiClient, KubeObj } from './client.js';

interface Involved { namespace: string; name: string; uid: string; resourceVersion?: string }

// client-go names an Event <object>.<hex of the time in ns>; a counter keeps them unique
// when two land in the same millisecond.
let sequence = 0;
const eventName = (object: string) => `${object}.${(BigInt(Date.now()) * 1_000_000n + BigInt(sequence++ % 1_000_000)).toString(16)}`;
const seconds = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const micro = () => new Date().toISOString().replace('Z', '000Z');

/** A core v1 Event as client-go's recorder posts it. */
export function coreEvent(kind: string, apiVersion: string, o: Involved, reason: string, message: string, component: string, host?: string, fieldPath?: string): KubeObj {
  const now = seconds();
  return {
    apiVersion: 'v1', kind: 'Event',
    metadata: { name: eventName(o.name), namespace: o.namespace },
    involvedObject: { kind, namespace: o.namespace, name: o.name, uid: o.uid, apiVersion, ...(o.resourceVersion ? { resourceVersion: o.resourceVersion } : {}), ...(fieldPath ? { fieldPath } : {}) },
    reason, message, source: { component, ...(host ? { host } : {}) },
    firstTimestamp: now, lastTimestamp: now, count: 1, type: 'Normal', eventTime: null,
    reportingComponent: component, reportingInstance: host ?? '',
  } as KubeObj;
}

/** kube-scheduler's Scheduled Event (events.k8s.io/v1). */
export function scheduledEvent(pod: Involved, node: string): KubeObj {
  return {
    apiVersion: 'events.k8s.io/v1', kind: 'Event',
    metadata: { name: eventName(pod.name), namespace: pod.namespace },
    eventTime: micro(), reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-hollow',
    action: 'Binding', reason: 'Scheduled', type: 'Normal',
    regarding: { kind: 'Pod', namespace: pod.namespace, name: pod.name, uid: pod.uid, apiVersion: 'v1', ...(pod.resourceVersion ? { resourceVersion: pod.resourceVersion } : {}) },
    note: `Successfully assigned ${pod.namespace}/${pod.name} to ${node}`,
  } as KubeObj;
}

/** Sends an Event without waiting for it, recorded under `events` as any call. */
export function emit(api: ApiClient, event: KubeObj): void {
  const path = event.apiVersion === 'v1'
    ? `/api/v1/namespaces/${event.metadata.namespace}/events`
    : `/apis/events.k8s.io/v1/namespaces/${event.metadata.namespace}/events`;
  void api.call({ resource: 'events', verb: 'POST', scope: 'resource' }, 'POST', path, event);
}

/** The kubelet's Events for a pod's containers starting (image already on the node). */
export function containerStartEvents(pod: Involved, node: string, containers: Array<{ name: string; image: string }>): KubeObj[] {
  return containers.flatMap((c) => {
    const at = `spec.containers{${c.name}}`;
    return [
      coreEvent('Pod', 'v1', pod, 'Pulled', `Container image "${c.image}" already present on machine`, 'kubelet', node, at),
      coreEvent('Pod', 'v1', pod, 'Created', `Created container ${c.name}`, 'kubelet', node, at),
      coreEvent('Pod', 'v1', pod, 'Started', `Started container ${c.name}`, 'kubelet', node, at),
    ];
  });
}

/** The kubelet's Killing Event per container when a pod is deleted. */
export function containerKillEvents(pod: Involved, node: string, containers: Array<{ name: string }>): KubeObj[] {
  return containers.map((c) => coreEvent('Pod', 'v1', pod, 'Killing', `Stopping container ${c.name}`, 'kubelet', node, `spec.containers{${c.name}}`));
}
