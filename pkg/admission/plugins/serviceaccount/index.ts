// ServiceAccount: a new pod runs as `default` unless it names an account; the account
// must exist; unless the pod or the account opts out, every container and init container
// mounts a projected kube-api-access-<suffix> volume (bound token, kube-root-ca.crt,
// namespace); the account's imagePullSecrets are copied to a pod that has none. An
// account annotated kubernetes.io/enforce-mountable-secrets=true limits the secrets its
// pods may use to its own. Mirror pods are left unchanged and may not use any of this.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import type { ObjectSource } from '../../source.js';
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';
import { generateName } from '../../../registry/generic/names.js';
import type { KubeObject } from '../../../runtime/object.js';
import { errors } from '../../../runtime/errors.js';

export const pluginName = 'ServiceAccount';
export const defaultServiceAccountName = 'default';
export const enforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';
export const defaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
export const serviceAccountVolumeName = 'kube-api-access';
const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
/** Longer than an hour on purpose: the kubelet refreshes at 80%, and 3607 marks legacy-style tokens. */
const boundTokenExpirationSeconds = 3607;

export interface ServiceAccountOptions {
  /** Pause between live lookups of a missing account (upstream: 100–200ms). */
  retryIntervalMs?: number;
  generateName?: (base: string) => string;
}

export class ServiceAccount implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/pods']);
  private readonly retryIntervalMs: number;
  private readonly generateName: (base: string) => string;

  constructor(private readonly accounts: ObjectSource, opts: ServiceAccountOptions = {}) {
    this.retryIntervalMs = opts.retryIntervalMs ?? 100 + Math.floor(Math.random() * 100);
    this.generateName = opts.generateName ?? generateName;
  }

  handles(op: Operation): boolean { return op === 'CREATE' || op === 'UPDATE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (ignored(a) || a.operation !== 'CREATE' || a.subresource !== '') return;
    const pod = a.object!;
    const spec = podSpec(pod);
    if (isMirrorPod(pod)) return;
    if (!str(spec.serviceAccountName)) spec.serviceAccountName = str(spec.serviceAccount) || defaultServiceAccountName;
    // The v1 field kept for old clients always mirrors serviceAccountName.
    spec.serviceAccount = spec.serviceAccountName;
    const sa = await this.account(a, str(spec.serviceAccountName));
    if (shouldAutomount(sa, spec)) this.mountToken(spec);
    if (arr(spec.imagePullSecrets).length === 0) {
      const pull = arr(sa.imagePullSecrets).map((s) => ({ name: str(s.name) }));
      if (pull.length > 0) spec.imagePullSecrets = pull;
      else delete spec.imagePullSecrets;
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (ignored(a)) return;
    const pod = a.object!;
    const spec = podSpec(pod);
    if (a.operation === 'UPDATE') {
      if (a.subresource === 'ephemeralcontainers') await this.limitEphemeralSecrets(a, spec);
      return;
    }
    if (a.subresource !== '') return;
    if (isMirrorPod(pod)) return mirrorPodRules(a, pod);
    const sa = await this.account(a, str(spec.serviceAccountName));
    if (enforcesMountableSecrets(sa)) {
      const why = secretReferenceViolation(sa, spec);
      if (why) throw admissionForbidden(a, why);
    }
  }

  /**
   * The pod's account, from the cache or else storage. `default` is created by a controller
   * right after its namespace, so it is looked up several times before giving up.
   */
  private async account(a: AdmissionAttributes, name: string): Promise<KubeObject> {
    const cached = await this.accounts.get(a.namespace, name);
    if (cached) return cached;
    const attempts = name === defaultServiceAccountName ? 10 : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, this.retryIntervalMs));
      let live: KubeObject | undefined;
      try {
        live = await this.accounts.liveGet(a.namespace, name);
      } catch (err) {
        throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (live) return live;
    }
    const notFound = errors.notFound({ group: '', resource: 'serviceaccount' }, name);
    throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: ${notFound.message}`);
  }

  private mountToken(spec: Obj): void {
    const volumes = arr(spec.volumes);
    const existing = volumes.find((v) => str(v.name).startsWith(`${serviceAccountVolumeName}-`));
    const volumeName = existing ? str(existing.name) : this.generateName(`${serviceAccountVolumeName}-`);
    let needsVolume = false;
    for (const list of ['initContainers', 'containers']) {
      for (const c of arr(spec[list])) {
        const mounts = arr(c.volumeMounts);
        // A mount already at the token path is the pod's choice.
        if (mounts.some((m) => m.mountPath === defaultAPITokenMountPath)) continue;
        c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: defaultAPITokenMountPath }];
        needsVolume = true;
      }
    }
    if (!existing && needsVolume) spec.volumes = [...volumes, tokenVolume(volumeName)];
  }

  private async limitEphemeralSecrets(a: AdmissionAttributes, spec: Obj): Promise<void> {
    if (!str(spec.serviceAccountName)) throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${a.name}`);
    const sa = await this.account(a, str(spec.serviceAccountName));
    if (!enforcesMountableSecrets(sa)) return;
    const mountable = new Set(arr(sa.secrets).map((s) => str(s.name)));
    for (const c of arr(spec.ephemeralContainers)) {
      const why = containerSecretViolation(c, 'ephemeral container', mountable, str(sa.metadata.name));
      if (why) throw admissionForbidden(a, why);
    }
  }
}

/** The projected volume upstream mounts (defaultMode and fieldRef apiVersion set explicitly, as upstream). */
export function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: boundTokenExpirationSeconds, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

function ignored(a: AdmissionAttributes): boolean {
  if (a.group !== '' || a.resource !== 'pods' || !a.object) return true;
  return a.subresource !== '' && a.subresource !== 'ephemeralcontainers';
}

function podSpec(pod: KubeObject): Obj {
  if (!obj(pod.spec)) pod.spec = {};
  return pod.spec as Obj;
}

function isMirrorPod(pod: KubeObject): boolean {
  return mirrorPodAnnotation in (pod.metadata.annotations ?? {});
}

/** The pod's setting wins, then the account's; on by default. */
function shouldAutomount(sa: KubeObject, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  const fromAccount = (sa as Obj).automountServiceAccountToken;
  if (typeof fromAccount === 'boolean') return fromAccount;
  return true;
}

/** strconv.ParseBool of the annotation. */
function enforcesMountableSecrets(sa: KubeObject): boolean {
  const v = sa.metadata.annotations?.[enforceMountableSecretsAnnotation];
  return v !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

function secretReferenceViolation(sa: KubeObject, spec: Obj): string | undefined {
  const saName = str(sa.metadata.name);
  const mountable = new Set(arr(sa.secrets).map((s) => str(s.name)));
  for (const v of arr(spec.volumes)) {
    const secret = obj(v.secret);
    if (!secret) continue;
    const name = str(secret.secretName);
    if (!mountable.has(name)) return `volume with secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
  }
  for (const [list, label] of [['initContainers', 'init container'], ['containers', 'container']] as const) {
    for (const c of arr(spec[list])) {
      const why = containerSecretViolation(c, label, mountable, saName);
      if (why) return why;
    }
  }
  const pullable = new Set(arr(sa.imagePullSecrets).map((s) => str(s.name)));
  const pulls = arr(spec.imagePullSecrets);
  for (let i = 0; i < pulls.length; i++) {
    const name = str(pulls[i].name);
    if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}

/** Secrets a container's environment reads (env, then envFrom; the latter as in upstream's CVE-2024-3177 fix). */
function containerSecretViolation(c: Obj, label: string, mountable: Set<string>, saName: string): string | undefined {
  const tail = `is not allowed because service account ${saName} does not reference that secret`;
  for (const e of arr(c.env)) {
    const ref = obj(obj(e.valueFrom)?.secretKeyRef);
    if (ref && !mountable.has(str(ref.name))) return `${label} ${str(c.name)} with envVar ${str(e.name)} referencing secret.secretName="${str(ref.name)}" ${tail}`;
  }
  for (const e of arr(c.envFrom)) {
    const ref = obj(e.secretRef);
    if (ref && !mountable.has(str(ref.name))) return `${label} ${str(c.name)} with envFrom referencing secret.secretName="${str(ref.name)}" ${tail}`;
  }
  return undefined;
}

function mirrorPodRules(a: AdmissionAttributes, pod: KubeObject): void {
  const spec = podSpec(pod);
  if (str(spec.serviceAccountName) || str(spec.serviceAccount)) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
  if (referencesSecrets(spec)) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
  for (const v of arr(spec.volumes)) {
    if (arr(obj(v.projected)?.sources).some((s) => obj(s.serviceAccountToken))) {
      throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
    }
  }
}

/** Whether the pod names any secret anywhere (podutil.VisitPodSecretNames over all containers). */
function referencesSecrets(spec: Obj): boolean {
  if (arr(spec.imagePullSecrets).some((s) => str(s.name))) return true;
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of arr(spec[list])) {
      if (arr(c.envFrom).some((e) => str(obj(e.secretRef)?.name))) return true;
      if (arr(c.env).some((e) => str(obj(obj(e.valueFrom)?.secretKeyRef)?.name))) return true;
    }
  }
  for (const v of arr(spec.volumes)) {
    if (str(obj(v.secret)?.secretName)) return true;
    if (arr(obj(v.projected)?.sources).some((s) => str(obj(s.secret)?.name))) return true;
    if (str(obj(v.azureFile)?.secretName)) return true;
    for (const kind of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) {
      if (str(obj(obj(v[kind])?.secretRef)?.name)) return true;
    }
    if (str(obj(obj(v.csi)?.nodePublishSecretRef)?.name)) return true;
  }
  return false;
}
