// `kubectl get nodes [-o wide]`, as upstream's node printer.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

const addressesDoc = "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

const roleLabelPrefix = 'node-role.kubernetes.io/';
const roleLabel = 'kubernetes.io/role';

export const nodeTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn(),
    column('Version', 'string', 'Kubelet Version reported by the node.'),
    column('Internal-IP', 'string', addressesDoc, { priority: 1 }),
    column('External-IP', 'string', addressesDoc, { priority: 1 }),
    column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', { priority: 1 }),
    column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", { priority: 1 }),
    column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', { priority: 1 }),
  ],
  cells: (obj) => {
    const status = isPlainObject(obj.status) ? obj.status : {};
    const info = isPlainObject(status.nodeInfo) ? status.nodeInfo : {};
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    const orUnknown = (v: unknown): string => str(v) || '<unknown>';
    return [
      obj.metadata.name ?? '',
      nodeStatusText(obj),
      nodeRoles(obj),
      humanAge(obj.metadata.creationTimestamp),
      str(info.kubeletVersion),
      address(obj, 'InternalIP'),
      address(obj, 'ExternalIP'),
      orUnknown(info.osImage),
      orUnknown(info.kernelVersion),
      orUnknown(info.containerRuntimeVersion),
    ];
  },
};

/** Ready / NotReady / Unknown from the Ready condition, plus SchedulingDisabled when cordoned. */
function nodeStatusText(obj: KubeObject): string {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isPlainObject) : [];
  const parts: string[] = [];
  for (const c of conditions) {
    if (c.type !== 'Ready') continue;
    parts.push(c.status === 'True' ? 'Ready' : c.status === 'False' ? 'NotReady' : 'Unknown');
  }
  if (parts.length === 0) parts.push('Unknown');
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  if (spec.unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(obj: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj.metadata.labels ?? {})) {
    if (k.startsWith(roleLabelPrefix)) {
      const role = k.slice(roleLabelPrefix.length);
      if (role) roles.add(role);
    } else if (k === roleLabel && v) {
      roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function address(obj: KubeObject, type: string): string {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const addrs = Array.isArray(status.addresses) ? status.addresses.filter(isPlainObject) : [];
  const a = addrs.find((x) => x.type === type);
  return a && typeof a.address === 'string' ? a.address : '<none>';
}
