// `kubectl get pods` (and -o wide), as upstream's printPod computes each column.
import { ageColumn, column, humanAge, type TableConvertor } from '../../../runtime/table.js';
import type { KubeObject } from '../../../runtime/object.js';
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';


export const podTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names'),
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn(),
    column('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', { priority: 1 }),
    column('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.', { priority: 1 }),
    column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', { priority: 1 }),
    column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates', { priority: 1 }),
  ],
  cells: (pod) => podCells(pod),
};

function podCells(pod: KubeObject): unknown[] {
  const spec = obj(pod.spec) ?? {};
  const status = obj(pod.status) ?? {};
  const total = arr(spec.containers).length;
  let ready = 0;
  let restarts = 0;
  let reason = str(status.reason) || str(status.phase);
  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  const initCount = arr(spec.initContainers).length;
  initStatuses.forEach((c, i) => {
    restarts += Number(c.restartCount ?? 0);
    const state = obj(c.state) ?? {};
    const term = obj(state.terminated);
    const waiting = obj(state.waiting);
    if (term && term.exitCode === 0) return;
    if (initializing) return;
    initializing = true;
    if (term) {
      reason = str(term.reason) ? `Init:${str(term.reason)}`
        : term.signal ? `Init:Signal:${String(term.signal)}` : `Init:ExitCode:${String(term.exitCode)}`;
    } else if (waiting && str(waiting.reason) && str(waiting.reason) !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
  });
  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += Number(c.restartCount ?? 0);
      const state = obj(c.state) ?? {};
      const waiting = obj(state.waiting);
      const term = obj(state.terminated);
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (term && str(term.reason)) reason = str(term.reason);
      else if (term) reason = term.signal ? `Signal:${String(term.signal)}` : `ExitCode:${String(term.exitCode)}`;
      else if (c.ready === true && obj(state.running)) { hasRunning = true; ready++; }
    }
    if (reason === 'Completed' && hasRunning) reason = hasReadyCondition(status) ? 'Running' : 'NotReady';
  }
  if (pod.metadata.deletionTimestamp) reason = str(status.reason) === 'NodeLost' ? 'Unknown' : 'Terminating';
  const gates = arr(spec.readinessGates);
  let gatesCell = '<none>';
  if (gates.length > 0) {
    const conds = arr(status.conditions);
    const trueCount = gates.filter((g) => conds.some((c) => c.type === g.conditionType && c.status === 'True')).length;
    gatesCell = `${trueCount}/${gates.length}`;
  }
  return [
    pod.metadata.name ?? '', `${ready}/${total}`, reason, String(restarts), humanAge(pod.metadata.creationTimestamp),
    str(status.podIP) || '<none>', str(spec.nodeName) || '<none>', str(status.nominatedNodeName) || '<none>', gatesCell,
  ];
}

function hasReadyCondition(status: Obj): boolean {
  return arr(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
}
