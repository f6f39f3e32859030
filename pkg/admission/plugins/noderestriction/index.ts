// NodeRestriction: a kubelet (system:node:<name> in system:nodes) may write only its own
// Node (not its taints, nor labels outside the kubelet set), create only mirror pods bound
// to and owned by itself, delete and update the status of only pods bound to it, update
// only the status of claims, and touch only its own lease and CSINode. Everyone else is
// not this plugin's concern. Refusals are 403 worded as upstream's.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { nodeIdentity } from '../../../authorization/node/index.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { forbiddenLabels, modifiedLabels } from './labels.js';

export const pluginName = 'NodeRestriction';

const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const nodeLeaseNamespace = 'kube-node-lease';

const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Where the plugin reads Nodes (a mirror pod's owner must be the node's current UID). */
export interface NodeSource { get(name: string): KubeObject | undefined }

export class NodeRestriction implements AdmissionPlugin {
  readonly name = pluginName;

  constructor(private readonly nodes: NodeSource) {}

  handles(op: Operation): boolean { return op === 'CREATE' || op === 'UPDATE' || op === 'DELETE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (!a.user.groups.includes('system:nodes') || !a.user.name.startsWith('system:node:')) return;
    const node = nodeIdentity(a.user).name;
    const refuse = (why: string): never => { throw admissionForbidden(a, why); };
    if (!node) refuse(`could not determine node from user ${JSON.stringify(a.user.name)}`);
    switch (`${a.group}/${a.resource}`) {
      case '/pods':
        if (a.subresource === '') return this.pod(node, a, refuse);
        if (a.subresource === 'status') return podStatus(node, a, refuse);
        if (a.subresource === 'eviction') return evictedPod(node, a, refuse);
        return refuse(`unexpected pod subresource ${JSON.stringify(a.subresource)}, only 'status' and 'eviction' are allowed`);
      case '/nodes': return ownNode(node, a, refuse);
      case '/persistentvolumeclaims':
        if (a.subresource !== 'status') refuse('may only update PVC status');
        return claimStatus(node, a, refuse);
      case 'coordination.k8s.io/leases':
        if (a.namespace !== nodeLeaseNamespace) refuse(`can only access leases in the "${nodeLeaseNamespace}" system namespace`);
        if (a.name !== node) refuse('can only access node lease with the same name as the requesting node');
        return;
      case 'storage.k8s.io/csinodes':
        if (a.name !== node) refuse('can only access CSINode with the same name as the requesting node');
        return;
      default:
    }
  }

  private pod(node: string, a: AdmissionAttributes, refuse: (why: string) => never): void {
    if (a.operation === 'DELETE') {
      if (str(rec(a.oldObject?.spec).nodeName) !== node) refuse(`node "${node}" can only delete pods with spec.nodeName set to itself`);
      return;
    }
    if (a.operation !== 'CREATE') refuse(`unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
    this.mirrorPod(node, a.object!, refuse);
  }

  private mirrorPod(node: string, pod: KubeObject, refuse: (why: string) => never): void {
    const spec = rec(pod.spec);
    if (!(mirrorPodAnnotation in (pod.metadata.annotations ?? {}))) {
      refuse(`pod does not have "${mirrorPodAnnotation}" annotation, node "${node}" can only create mirror pods`);
    }
    if (str(spec.nodeName) !== node) refuse(`node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata.ownerReferences ?? [];
    if (owners.length > 1) refuse(`node "${node}" can only create pods with a single owner reference set to itself`);
    const owner = owners[0];
    if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
      refuse(`node "${node}" can only create pods with an owner reference set to itself`);
    }
    if (owner!.controller !== true) refuse(`node "${node}" can only create pods with a controller owner reference set to itself`);
    if (owner!.blockOwnerDeletion === true) refuse(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
    const uid = this.nodes.get(node)?.metadata.uid ?? '';
    if (owner!.uid !== uid) refuse(`node ${node} UID mismatch: expected ${owner!.uid} got ${uid}`);
    // A mirror pod may reference nothing the node could not already read.
    if (str(spec.serviceAccountName)) refuse(`node "${node}" can not create pods that reference a service account`);
    const refs = podReferenceKinds(spec);
    if (refs.secrets) refuse(`node "${node}" can not create pods that reference secrets`);
    if (refs.configmaps) refuse(`node "${node}" can not create pods that reference configmaps`);
    if (arr(spec.volumes).some((v) => isPlainObject(rec(v).persistentVolumeClaim))) {
      refuse(`node "${node}" can not create pods that reference persistentvolumeclaims`);
    }
  }
}

function podStatus(node: string, a: AdmissionAttributes, refuse: (why: string) => never): void {
  if (a.operation !== 'UPDATE') refuse(`unexpected operation "${a.operation}"`);
  if (str(rec(a.oldObject?.spec).nodeName) !== node) refuse(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
  if (!same(sorted(a.oldObject?.metadata.labels), sorted(a.object?.metadata.labels))) refuse(`node "${node}" cannot update labels through pod status`);
  if (!same(rec(a.oldObject?.status).resourceClaimStatuses, rec(a.object?.status).resourceClaimStatuses)) {
    refuse(`node "${node}" cannot update resource claim statues`);
  }
}

/** The pod being evicted arrives as oldObject. */
function evictedPod(node: string, a: AdmissionAttributes, refuse: (why: string) => never): void {
  if (a.operation !== 'CREATE') refuse(`unexpected operation ${a.operation}`);
  if (str(rec(a.oldObject?.spec).nodeName) !== node) refuse(`node ${node} can only evict pods with spec.nodeName set to itself`);
}

function ownNode(node: string, a: AdmissionAttributes, refuse: (why: string) => never): void {
  if (a.name !== node) refuse(`node "${node}" is not allowed to modify node "${a.name}"`);
  const spec = rec(a.object?.spec);
  if (a.operation === 'CREATE') {
    if (spec.configSource != null) refuse(`node "${node}" is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(modifiedLabels(a.object?.metadata.labels, undefined));
    if (bad.length > 0) refuse(`node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (a.operation === 'UPDATE') {
    const old = rec(a.oldObject?.spec);
    if (spec.configSource != null && !same(spec.configSource, old.configSource)) {
      refuse(`node "${node}" is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!same(nonEmpty(spec.taints), nonEmpty(old.taints))) refuse(`node "${node}" is not allowed to modify taints`);
    const bad = forbiddenLabels(modifiedLabels(a.object?.metadata.labels, a.oldObject?.metadata.labels));
    if (bad.length > 0) refuse(`is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

/** Only status.capacity and status.conditions may change (metadata bookkeeping aside). */
function claimStatus(node: string, a: AdmissionAttributes, refuse: (why: string) => never): void {
  if (a.operation !== 'UPDATE') refuse(`unexpected operation "${a.operation}"`);
  const strip = (o: KubeObject | undefined): KubeObject => {
    const c = structuredClone(o ?? { metadata: {} });
    delete c.metadata.resourceVersion;
    delete c.metadata.managedFields;
    const status = rec(c.status);
    delete status.capacity;
    delete status.conditions;
    return c;
  };
  const before = strip(a.oldObject);
  const after = strip(a.object);
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !same(canonical(before[k]), canonical(after[k])));
  if (changed.length > 0) {
    refuse(`node "${node}" is not allowed to update fields other than status.capacity and status.conditions: changed ${changed.sort().join(', ')}`);
  }
}

function podReferenceKinds(spec: Record<string, unknown>): { secrets: boolean; configmaps: boolean } {
  let secrets = arr(spec.imagePullSecrets).length > 0;
  let configmaps = false;
  for (const v of arr(spec.volumes).map(rec)) {
    if (isPlainObject(v.secret)) secrets = true;
    if (isPlainObject(v.configMap)) configmaps = true;
    for (const src of arr(rec(v.projected).sources).map(rec)) {
      if (isPlainObject(src.secret)) secrets = true;
      if (isPlainObject(src.configMap)) configmaps = true;
    }
    for (const key of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos', 'csi']) {
      const src = rec(v[key]);
      if (str(src.secretName) || isPlainObject(src.secretRef) || isPlainObject(src.nodePublishSecretRef)) secrets = true;
    }
  }
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of arr(spec[key]).map(rec)) {
      for (const e of arr(c.env).map(rec)) {
        if (isPlainObject(rec(e.valueFrom).secretKeyRef)) secrets = true;
        if (isPlainObject(rec(e.valueFrom).configMapKeyRef)) configmaps = true;
      }
      for (const e of arr(c.envFrom).map(rec)) {
        if (isPlainObject(e.secretRef)) secrets = true;
        if (isPlainObject(e.configMapRef)) configmaps = true;
      }
    }
  }
  return { secrets, configmaps };
}

/** Go's semantic equality treats a missing list like an empty one. */
const nonEmpty = (v: unknown): unknown => (Array.isArray(v) && v.length === 0 ? undefined : v);

function sorted(labels: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** Key order does not make two objects differ. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
}
