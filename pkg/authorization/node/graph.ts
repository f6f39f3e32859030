// What each node may read: the objects its bound pods reference (secrets, configmaps,
// persistent volume claims, their volumes and the secrets those volumes name, service
// accounts), and volume attachments naming it. Fed by each replica's informers (watches
// of the storage) of pods, persistentvolumeclaims, persistentvolumes and volumeattachments.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

export type VertexType = 'secret' | 'configmap' | 'pvc' | 'pv' | 'serviceaccount' | 'volumeattachment';

interface PodRefs { namespace: string; refs: Set<string> }

const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `type/name` of everything a pod spec references in its own namespace. */
export function podReferences(pod: KubeObject): Set<string> {
  const spec = rec(pod.spec);
  const refs = new Set<string>();
  const add = (t: VertexType, name: string): void => { if (name) refs.add(`${t}/${name}`); };
  add('serviceaccount', str(spec.serviceAccountName) || str(spec.serviceAccount));
  for (const s of arr(spec.imagePullSecrets)) add('secret', str(rec(s).name));
  for (const v of arr(spec.volumes).map(rec)) {
    add('secret', str(rec(v.secret).secretName));
    add('configmap', str(rec(v.configMap).name));
    add('pvc', str(rec(v.persistentVolumeClaim).claimName));
    add('secret', str(rec(rec(v.csi).nodePublishSecretRef).name));
    if (isPlainObject(v.ephemeral)) add('pvc', `${pod.metadata.name}-${str(v.name)}`);
    for (const src of arr(rec(v.projected).sources).map(rec)) {
      add('secret', str(rec(src.secret).name));
      add('configmap', str(rec(src.configMap).name));
    }
  }
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of arr(spec[key]).map(rec)) {
      for (const e of arr(c.env).map(rec)) {
        add('secret', str(rec(rec(e.valueFrom).secretKeyRef).name));
        add('configmap', str(rec(rec(e.valueFrom).configMapKeyRef).name));
      }
      for (const e of arr(c.envFrom).map(rec)) {
        add('secret', str(rec(e.secretRef).name));
        add('configmap', str(rec(e.configMapRef).name));
      }
    }
  }
  return refs;
}

/** `namespace/name` of the secrets a persistent volume's source names (upstream VisitPVSecretNames). */
export function volumeSecrets(pv: KubeObject): Set<string> {
  const spec = rec(pv.spec);
  const claimNamespace = str(rec(spec.claimRef).namespace);
  const out = new Set<string>();
  const ref = (r: unknown, defaultNamespace: string): void => {
    const name = str(rec(r).name);
    if (name) out.add(`${str(rec(r).namespace) || defaultNamespace}/${name}`);
  };
  const azure = rec(spec.azureFile);
  if (str(azure.secretName)) out.add(`${str(azure.secretNamespace) || claimNamespace || 'default'}/${str(azure.secretName)}`);
  for (const key of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) ref(rec(spec[key]).secretRef, claimNamespace);
  const csi = rec(spec.csi);
  for (const key of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef']) {
    ref(csi[key], '');
  }
  return out;
}

export class NodeGraph {
  private podsByNode = new Map<string, Map<string, PodRefs>>();
  private podNode = new Map<string, string>();
  /** namespace/name of a claim -> bound volume name. */
  private claimVolume = new Map<string, string>();
  /** volume name -> `namespace/name` of the secrets it names. */
  private volumeSecrets = new Map<string, Set<string>>();
  /** volume attachment name -> node name. */
  private attachments = new Map<string, string>();

  upsertPod(pod: KubeObject): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    this.deletePod(pod);
    const node = str(rec(pod.spec).nodeName);
    if (!node) return;
    let pods = this.podsByNode.get(node);
    if (!pods) this.podsByNode.set(node, (pods = new Map()));
    pods.set(key, { namespace: pod.metadata.namespace ?? '', refs: podReferences(pod) });
    this.podNode.set(key, node);
  }

  deletePod(pod: KubeObject): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const node = this.podNode.get(key);
    if (node === undefined) return;
    this.podNode.delete(key);
    const pods = this.podsByNode.get(node);
    pods?.delete(key);
    if (pods && pods.size === 0) this.podsByNode.delete(node);
  }

  upsertClaim(pvc: KubeObject): void {
    const vol = str(rec(pvc.spec).volumeName);
    const key = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
    if (vol) this.claimVolume.set(key, vol);
    else this.claimVolume.delete(key);
  }

  deleteClaim(pvc: KubeObject): void { this.claimVolume.delete(`${pvc.metadata.namespace}/${pvc.metadata.name}`); }

  upsertVolume(pv: KubeObject): void {
    const secrets = volumeSecrets(pv);
    if (secrets.size > 0) this.volumeSecrets.set(pv.metadata.name ?? '', secrets);
    else this.volumeSecrets.delete(pv.metadata.name ?? '');
  }

  deleteVolume(pv: KubeObject): void { this.volumeSecrets.delete(pv.metadata.name ?? ''); }

  upsertAttachment(va: KubeObject): void { this.attachments.set(va.metadata.name ?? '', str(rec(va.spec).nodeName)); }
  deleteAttachment(va: KubeObject): void { this.attachments.delete(va.metadata.name ?? ''); }

  /** Every node some pod or attachment names: the only nodes a path can lead to. */
  nodeNames(): Set<string> {
    return new Set([...this.podsByNode.keys(), ...this.attachments.values()]);
  }

  /** Is there a path from the object to the node? */
  hasPathFrom(node: string, type: VertexType, namespace: string, name: string): boolean {
    if (type === 'volumeattachment') return this.attachments.get(name) === node;
    for (const p of this.podsByNode.get(node)?.values() ?? []) {
      if (p.namespace === namespace && type !== 'pv' && p.refs.has(`${type}/${name}`)) return true;
      if (type !== 'pv' && type !== 'secret') continue;
      for (const r of p.refs) {
        const volume = r.startsWith('pvc/') ? this.claimVolume.get(`${p.namespace}/${r.slice(4)}`) : undefined;
        if (volume === undefined) continue;
        if (type === 'pv' && volume === name) return true;
        if (type === 'secret' && this.volumeSecrets.get(volume)?.has(`${namespace}/${name}`)) return true;
      }
    }
    return false;
  }
}
