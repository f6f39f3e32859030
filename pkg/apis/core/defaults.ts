// Upstream's defaulting for PodSpec and everything inside it (core/v1 defaults.go),
// shared by Pods and every kind that embeds a PodTemplateSpec.
import { arr, containerLists, obj, setDefault, str, type Obj } from './types.js';

/** Defaults of a PodSpec wherever it appears (Pod, PodTemplate, workload templates). */
export function defaultPodSpec(spec: Obj): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  const hostNetwork = spec.hostNetwork === true;
  for (const list of containerLists) {
    for (const c of arr(spec[list])) defaultContainer(c, hostNetwork, list === 'ephemeralContainers');
  }
  for (const v of arr(spec.volumes)) defaultVolume(v);
}

/** A template's metadata and spec; Go prints the template's zero creationTimestamp as null. */
export function defaultPodTemplateSpec(tpl: Obj): void {
  if (!obj(tpl.metadata)) tpl.metadata = {};
  const meta = tpl.metadata as Obj;
  if (meta.creationTimestamp === undefined) meta.creationTimestamp = null;
  if (!obj(tpl.spec)) tpl.spec = {};
  defaultPodSpec(tpl.spec as Obj);
}

/** Pod-only defaults on top of the PodSpec's (SetDefaults_Pod). */
export function defaultPod(pod: Obj): void {
  if (!obj(pod.spec)) pod.spec = {};
  const spec = pod.spec as Obj;
  // Requests default to limits, for Pods only (not templates).
  for (const list of ['initContainers', 'containers'] as const) {
    for (const c of arr(spec[list])) {
      const res = obj(c.resources);
      const limits = obj(res?.limits);
      if (!res || !limits) continue;
      const requests = obj(res.requests) ?? {};
      for (const [k, v] of Object.entries(limits)) if (requests[k] === undefined) requests[k] = v;
      res.requests = requests;
    }
  }
  setDefault(spec, 'enableServiceLinks', true);
  defaultPodSpec(spec);
}

function defaultContainer(c: Obj, hostNetwork: boolean, ephemeral: boolean): void {
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  if (!c.imagePullPolicy) c.imagePullPolicy = pullPolicyFor(str(c.image));
  // Go serializes the non-pointer ResourceRequirements struct as {} when empty.
  if (!obj(c.resources)) c.resources = {};
  for (const p of arr(c.ports)) {
    setDefault(p, 'protocol', 'TCP');
    if (hostNetwork && p.hostPort === undefined && !ephemeral) p.hostPort = p.containerPort;
  }
  for (const e of arr(c.env)) {
    const fieldRef = obj(obj(e.valueFrom)?.fieldRef);
    if (fieldRef) setDefault(fieldRef, 'apiVersion', 'v1');
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = obj(c[probe]);
    if (p) defaultProbe(p);
  }
  const lifecycle = obj(c.lifecycle);
  for (const h of ['postStart', 'preStop']) {
    const handler = obj(lifecycle?.[h]);
    if (handler) defaultHandler(handler);
  }
}

/**
 * Always for `:latest` or an untagged image, IfNotPresent otherwise (digests count as
 * tags). An image upstream cannot parse as a reference (empty, upper-case name) has no
 * tag there, so it gets IfNotPresent; validation refuses the empty one later.
 */
export function pullPolicyFor(image: string): string {
  if (!image || /[A-Z]/.test(image.split(/[:@]/)[0].slice(image.indexOf('/') + 1))) return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon < 0) return 'Always';
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: Obj): void {
  setDefault(p, 'timeoutSeconds', 1);
  setDefault(p, 'periodSeconds', 10);
  setDefault(p, 'successThreshold', 1);
  setDefault(p, 'failureThreshold', 3);
  defaultHandler(p);
}

function defaultHandler(h: Obj): void {
  const http = obj(h.httpGet);
  if (http) {
    if (!http.path) http.path = '/';
    setDefault(http, 'scheme', 'HTTP');
  }
  const grpc = obj(h.grpc);
  if (grpc) setDefault(grpc, 'service', '');
}

const defaultMode = 0o644;

function defaultVolume(v: Obj): void {
  const sources = Object.keys(v).filter((k) => k !== 'name' && v[k] !== null && v[k] !== undefined);
  if (sources.length === 0) v.emptyDir = {};
  const withMode = ['secret', 'configMap', 'downwardAPI', 'projected'];
  for (const k of withMode) {
    const s = obj(v[k]);
    if (s) setDefault(s, 'defaultMode', defaultMode);
  }
  for (const item of arr(obj(v.downwardAPI)?.items)) {
    const fieldRef = obj(item.fieldRef);
    if (fieldRef) setDefault(fieldRef, 'apiVersion', 'v1');
  }
  for (const src of arr(obj(v.projected)?.sources)) {
    for (const item of arr(obj(src.downwardAPI)?.items)) {
      const fieldRef = obj(item.fieldRef);
      if (fieldRef) setDefault(fieldRef, 'apiVersion', 'v1');
    }
    const token = obj(src.serviceAccountToken);
    if (token) setDefault(token, 'expirationSeconds', 3600);
  }
  const hostPath = obj(v.hostPath);
  if (hostPath) setDefault(hostPath, 'type', '');
  const iscsi = obj(v.iscsi);
  if (iscsi) setDefault(iscsi, 'iscsiInterface', 'default');
  const rbd = obj(v.rbd);
  if (rbd) {
    if (!rbd.pool) rbd.pool = 'rbd';
    if (!rbd.user) rbd.user = 'admin';
    if (!rbd.keyring) rbd.keyring = '/etc/ceph/keyring';
  }
  const azureDisk = obj(v.azureDisk);
  if (azureDisk) {
    setDefault(azureDisk, 'cachingMode', 'ReadWrite');
    setDefault(azureDisk, 'fsType', 'ext4');
    setDefault(azureDisk, 'readOnly', false);
    setDefault(azureDisk, 'kind', 'Shared');
  }
  const scaleIO = obj(v.scaleIO);
  if (scaleIO) {
    setDefault(scaleIO, 'storageMode', 'ThinProvisioned');
    setDefault(scaleIO, 'fsType', 'xfs');
  }
}

/** status.qosClass as upstream computes it on create (every container, init included). */
export function podQOSClass(spec: Obj): string {
  const containers = [...arr(spec.initContainers), ...arr(spec.containers)];
  let anyResource = false;
  let guaranteed = true;
  for (const c of containers) {
    const res = obj(c.resources);
    const req = obj(res?.requests) ?? {};
    const lim = obj(res?.limits) ?? {};
    const relevant = (m: Obj) => Object.keys(m).filter((k) => k === 'cpu' || k === 'memory' || k.startsWith('hugepages-'));
    if (relevant(req).length > 0 || relevant(lim).length > 0) anyResource = true;
    for (const k of ['cpu', 'memory']) {
      if (lim[k] === undefined) guaranteed = false;
      else if (req[k] !== undefined && String(req[k]) !== String(lim[k])) guaranteed = false;
    }
  }
  if (!anyResource) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
