// Upstream's PodSpec validation (core/validation ValidatePodSpec and the container,
// volume and resource checks under it), shared by Pods and every pod template.
import type { FieldError } from '../../runtime/errors.js';
import { child, duplicate, forbidden, index, invalid, key, notFound, notSupported, required } from '../validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../validation/names.js';
import { validateAnnotations, validateLabels } from '../validation/objectmeta.js';
import { parseQuantity, quantityString } from './quantity.js';
import { arr, obj, str, type Obj } from './types.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const maxInt32 = 2147483647;

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameRe = new RegExp(`^${envVarNameFmt}$`);
const envVarNameMsg = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRe.test(value)) errs.push(regexError(envVarNameMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

export function portRangeError(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** The volume names declared by a pod spec, for mount checks. */
function volumeNames(spec: Obj): Set<string> {
  return new Set(arr(spec.volumes).map((v) => str(v.name)));
}

export function validatePodSpec(spec: Obj | undefined, path: string): FieldError[] {
  if (!spec) return [required(path)];
  const errs: FieldError[] = [];
  errs.push(...validateVolumes(arr(spec.volumes), child(path, 'volumes')));
  const vols = volumeNames(spec);
  const containers = arr(spec.containers);
  const names = new Set<string>();
  if (containers.length === 0) errs.push(required(child(path, 'containers')));
  containers.forEach((c, i) => errs.push(...validateContainer(c, index(child(path, 'containers'), i), names, vols)));
  arr(spec.initContainers).forEach((c, i) => errs.push(...validateContainer(c, index(child(path, 'initContainers'), i), names, vols)));
  const regular = new Set([...containers, ...arr(spec.initContainers)].map((c) => str(c.name)));
  arr(spec.ephemeralContainers).forEach((c, i) => {
    const p = index(child(path, 'ephemeralContainers'), i);
    errs.push(...validateContainer(c, p, names, vols));
    errs.push(...ephemeralRestrictions(c, p, regular));
  });
  errs.push(...validateEnum(spec.restartPolicy, child(path, 'restartPolicy'), restartPolicies));
  errs.push(...validateEnum(spec.dnsPolicy, child(path, 'dnsPolicy'), dnsPolicies));
  const nodeSelector = obj(spec.nodeSelector);
  if (nodeSelector) errs.push(...validateLabels(nodeSelector as Record<string, string>, child(path, 'nodeSelector')));
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName) {
    for (const msg of isDNS1123Subdomain(spec.serviceAccountName)) errs.push(invalid(child(path, 'serviceAccountName'), spec.serviceAccountName, msg));
  }
  if (typeof spec.nodeName === 'string' && spec.nodeName) {
    for (const msg of isDNS1123Subdomain(spec.nodeName)) errs.push(invalid(child(path, 'nodeName'), spec.nodeName, msg));
  }
  if (typeof spec.activeDeadlineSeconds === 'number') {
    const v = spec.activeDeadlineSeconds;
    if (v < 1 || v > maxInt32) errs.push(invalid(child(path, 'activeDeadlineSeconds'), v, `must be between 1 and ${maxInt32}, inclusive`));
  }
  for (const f of ['hostname', 'subdomain']) {
    const v = spec[f];
    if (typeof v === 'string' && v) for (const msg of isDNS1123Label(v)) errs.push(invalid(child(path, f), v, msg));
  }
  arr(spec.tolerations).forEach((t, i) => errs.push(...validateToleration(t, index(child(path, 'tolerations'), i))));
  return errs;
}

/** template.metadata labels/annotations and the spec, under `path` (e.g. spec.template). */
export function validatePodTemplateSpec(tpl: Obj | undefined, path: string): FieldError[] {
  if (!tpl) return [required(path)];
  const errs: FieldError[] = [];
  const meta = obj(tpl.metadata) ?? {};
  errs.push(...validateLabels(obj(meta.labels) as Record<string, string> | undefined, child(path, 'metadata', 'labels')));
  errs.push(...validateAnnotations(obj(meta.annotations) as Record<string, string> | undefined, child(path, 'metadata', 'annotations')));
  errs.push(...validatePodSpec(obj(tpl.spec), child(path, 'spec')));
  return errs;
}

/** Fields an ephemeral container may not set, and its target must be a container of the pod. */
function ephemeralRestrictions(c: Obj, path: string, regular: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const target = str(c.targetContainerName);
  if (target && !regular.has(target)) errs.push(notFound(child(path, 'targetContainerName'), target));
  for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe', 'ports', 'resizePolicy', 'restartPolicy']) {
    const v = c[f];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    errs.push(forbidden(child(path, f), 'cannot be set for an Ephemeral Container'));
  }
  const res = obj(c.resources);
  if (res && Object.keys(res).some((k) => Object.keys(obj(res[k]) ?? {}).length > 0)) {
    errs.push(forbidden(child(path, 'resources'), 'cannot be set for an Ephemeral Container'));
  }
  return errs;
}

function validateEnum(v: unknown, path: string, allowed: string[]): FieldError[] {
  const s = str(v);
  if (!s) return [required(path)];
  return allowed.includes(s) ? [] : [notSupported(path, s, allowed)];
}

function validateContainer(c: Obj, path: string, names: Set<string>, vols: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  const namePath = child(path, 'name');
  if (!name) errs.push(required(namePath));
  else if (names.has(name)) errs.push(duplicate(namePath, name));
  else for (const msg of isDNS1123Label(name)) errs.push(invalid(namePath, name, msg));
  names.add(name);
  const image = str(c.image);
  if (!image) errs.push(required(child(path, 'image')));
  else if (image.trim() !== image) errs.push(invalid(child(path, 'image'), image, 'must not have leading or trailing whitespace'));
  if (c.terminationMessagePolicy !== undefined) {
    errs.push(...validateEnum(c.terminationMessagePolicy, child(path, 'terminationMessagePolicy'), terminationMessagePolicies));
  }
  errs.push(...validatePorts(arr(c.ports), child(path, 'ports')));
  errs.push(...validateEnv(arr(c.env), child(path, 'env')));
  arr(c.volumeMounts).forEach((m, i) => {
    const p = index(child(path, 'volumeMounts'), i);
    const vname = str(m.name);
    if (!vname) errs.push(required(child(p, 'name')));
    else if (!vols.has(vname)) errs.push(notFound(child(p, 'name'), vname));
    if (!str(m.mountPath)) errs.push(required(child(p, 'mountPath')));
  });
  if (c.imagePullPolicy !== undefined) errs.push(...validateEnum(c.imagePullPolicy, child(path, 'imagePullPolicy'), pullPolicies));
  errs.push(...validateResources(obj(c.resources), child(path, 'resources')));
  return errs;
}

function validatePorts(ports: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const pp = index(path, i);
    const name = str(p.name);
    if (name) {
      if (names.has(name)) errs.push(duplicate(child(pp, 'name'), name));
      names.add(name);
    }
    const cp = p.containerPort;
    if (cp === undefined || cp === 0) errs.push(required(child(pp, 'containerPort')));
    else for (const msg of portRangeError(Number(cp))) errs.push(invalid(child(pp, 'containerPort'), cp, msg));
    if (typeof p.hostPort === 'number' && p.hostPort !== 0) {
      for (const msg of portRangeError(p.hostPort)) errs.push(invalid(child(pp, 'hostPort'), p.hostPort, msg));
    }
    if (p.protocol !== undefined) errs.push(...validateEnum(p.protocol, child(pp, 'protocol'), protocols));
  });
  return errs;
}

function validateEnv(env: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  env.forEach((e, i) => {
    const p = index(path, i);
    const name = str(e.name);
    if (!name) errs.push(required(child(p, 'name')));
    else for (const msg of isEnvVarName(name)) errs.push(invalid(child(p, 'name'), name, msg));
    const from = obj(e.valueFrom);
    if (from) {
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => from[k] !== undefined && from[k] !== null);
      if (sources.length === 0) errs.push(invalid(child(p, 'valueFrom'), '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      else if (typeof e.value === 'string' && e.value !== '') {
        errs.push(invalid(child(p, 'valueFrom'), '', 'may not be specified when `value` is not empty'));
      } else if (sources.length > 1) {
        errs.push(invalid(child(p, 'valueFrom'), '', 'may not have more than one field specified at a time'));
      }
    }
  });
  return errs;
}

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

function validateResources(res: Obj | undefined, path: string): FieldError[] {
  if (!res) return [];
  const errs: FieldError[] = [];
  const limits = obj(res.limits) ?? {};
  const requests = obj(res.requests) ?? {};
  for (const [section, values] of [['limits', limits], ['requests', requests]] as const) {
    for (const [name, q] of Object.entries(values)) {
      const p = key(child(path, section), name);
      if (!name.includes('/') && !standardContainerResources.has(name) && !name.startsWith('hugepages-')) {
        errs.push(invalid(p, name, 'must be a standard resource for containers'));
      }
      const v = parseQuantity(q);
      if (v !== undefined && v < 0) errs.push(invalid(p, quantityString(q), 'must be greater than or equal to 0'));
    }
  }
  for (const [name, q] of Object.entries(requests)) {
    const lim = limits[name];
    if (lim === undefined) continue;
    const rv = parseQuantity(q);
    const lv = parseQuantity(lim);
    if (rv !== undefined && lv !== undefined && rv > lv) {
      errs.push(invalid(child(path, 'requests'), quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(lim)}`));
    }
  }
  return errs;
}

const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume',
  'scaleIO', 'storageos', 'csi', 'ephemeral',
];

function validateVolumes(vols: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  vols.forEach((v, i) => {
    const p = index(path, i);
    const name = str(v.name);
    if (!name) errs.push(required(child(p, 'name')));
    else {
      for (const msg of isDNS1123Label(name)) errs.push(invalid(child(p, 'name'), name, msg));
      if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
    }
    names.add(name);
    const sources = volumeSources.filter((s) => v[s] !== undefined && v[s] !== null);
    if (sources.length === 0) errs.push(required(p, 'must specify a volume type'));
    else if (sources.length > 1) errs.push(forbidden(child(p, sources[1]!), 'may not specify more than 1 volume type'));
    const secret = obj(v.secret);
    if (secret && sources.length === 1 && !str(secret.secretName)) errs.push(required(child(p, 'secret', 'secretName')));
    const cm = obj(v.configMap);
    if (cm && sources.length === 1 && !str(cm.name)) errs.push(required(child(p, 'configMap', 'name')));
    const pvc = obj(v.persistentVolumeClaim);
    if (pvc && sources.length === 1 && !str(pvc.claimName)) errs.push(required(child(p, 'persistentVolumeClaim', 'claimName')));
    const hostPath = obj(v.hostPath);
    if (hostPath && sources.length === 1 && !str(hostPath.path)) errs.push(required(child(p, 'hostPath', 'path')));
  });
  return errs;
}

const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateToleration(t: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const k = str(t.key);
  const op = str(t.operator) || 'Equal';
  if (k) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(child(path, 'key'), k, msg));
  } else if (op !== 'Exists') {
    errs.push(invalid(child(path, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && str(t.effect) !== 'NoExecute') {
    errs.push(invalid(child(path, 'effect'), str(t.effect), 'effect must be \'NoExecute\' when `tolerationSeconds` is set'));
  }
  if (!tolerationOperators.includes(op)) errs.push(notSupported(child(path, 'operator'), op, tolerationOperators));
  else if (op === 'Exists' && str(t.value)) errs.push(invalid(child(path, 'operator'), t.value, 'value must be empty when `operator` is \'Exists\''));
  if (str(t.effect) && !taintEffects.includes(str(t.effect))) errs.push(notSupported(child(path, 'effect'), t.effect, taintEffects));
  return errs;
}
