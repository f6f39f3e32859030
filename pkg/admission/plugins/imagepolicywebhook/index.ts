// ImagePolicyWebhook: a pod's images (or, through /ephemeralcontainers, its ephemeral
// containers' images) are put to a backend as an imagepolicy.k8s.io/v1alpha1 ImageReview,
// with the pod's *.image-policy.k8s.io/* annotations and its namespace. Answers are cached
// by review spec (allowTTL / denyTTL); transient failures are retried with backoff; when the
// backend cannot answer, defaultAllow decides, and a pod let through is marked failed-open.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import type { ImagePolicyConfig } from './config.js';

export const auditKeyPrefix = 'imagepolicywebhook.image-policy.k8s.io/';
export const failedOpenAuditKey = `${auditKeyPrefix}failed-open`;
/** The pod annotation upstream still sets when failing open. */
export const failedOpenPodAnnotation = 'alpha.image-policy.k8s.io/failed-open';

export interface ImageReviewStatus {
  allowed: boolean;
  reason?: string;
  auditAnnotations?: Record<string, string>;
}

export interface ImageReviewSpec {
  containers?: Array<{ image?: string }>;
  annotations?: Record<string, string>;
  namespace?: string;
}

/** One POST of a review; a thrown BackendError says whether trying again may help. */
export type ReviewBackend = (review: Record<string, unknown>) => Promise<ImageReviewStatus>;

export class BackendError extends Error {
  constructor(message: string, readonly retriable: boolean) { super(message); }
}

const attempts = 5;
const cacheSize = 1024;

export class ImagePolicyWebhook implements AdmissionPlugin {
  readonly name = 'ImagePolicyWebhook';
  private readonly cache = new Map<string, { status: ImageReviewStatus; expires: number }>();

  constructor(private readonly cfg: Omit<ImagePolicyConfig, 'kubeConfigFile'>, private readonly backend: ReviewBackend,
    private readonly sleep = (ms: number) => new Promise<void>((r) => { setTimeout(r, ms).unref(); })) {}

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'pods' || (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') || !a.object) return;
    const pod = a.object;
    const spec = isPlainObject(pod.spec) ? pod.spec : {};
    const list = (k: string): Array<Record<string, unknown>> => (Array.isArray(spec[k]) ? spec[k] as Array<Record<string, unknown>> : []);
    const containers = a.subresource === '' ? [...list('containers'), ...list('initContainers')] : list('ephemeralContainers');
    const reviewSpec: ImageReviewSpec = {};
    if (containers.length > 0) reviewSpec.containers = containers.map((c) => (typeof c.image === 'string' && c.image ? { image: c.image } : {}));
    const annotations = Object.fromEntries(Object.entries(pod.metadata.annotations ?? {})
      .filter(([k]) => k.includes('.image-policy.k8s.io/')).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
    if (Object.keys(annotations).length > 0) reviewSpec.annotations = annotations;
    if (a.namespace) reviewSpec.namespace = a.namespace;
    await this.review(a, pod, reviewSpec);
  }

  private async review(a: AdmissionAttributes, pod: KubeObject, spec: ImageReviewSpec): Promise<void> {
    const key = JSON.stringify(spec);
    let status = this.cached(key);
    if (!status) {
      try {
        status = await this.ask(spec);
      } catch (err) {
        if (this.cfg.defaultAllow) {
          if (a.auditAnnotations) a.auditAnnotations[failedOpenAuditKey] = 'true';
          pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [failedOpenPodAnnotation]: 'true' };
          return;
        }
        throw admissionForbidden(a, (err as Error).message);
      }
      this.remember(key, status);
    }
    for (const [k, v] of Object.entries(status.auditAnnotations ?? {})) {
      if (a.auditAnnotations && !(auditKeyPrefix + k in a.auditAnnotations)) a.auditAnnotations[auditKeyPrefix + k] = v;
    }
    if (!status.allowed) {
      throw admissionForbidden(a, status.reason
        ? `image policy webhook backend denied one or more images: ${status.reason}`
        : 'one or more images rejected by webhook backend');
    }
  }

  /** Upstream's retry: 5 tries, starting at retryBackoff, x1.5 with 20% jitter, transient errors only. */
  private async ask(spec: ImageReviewSpec): Promise<ImageReviewStatus> {
    const body = { kind: 'ImageReview', apiVersion: 'imagepolicy.k8s.io/v1alpha1', metadata: { creationTimestamp: null }, spec, status: { allowed: false } };
    let delay = this.cfg.retryBackoffMs;
    for (let i = 1; ; i++) {
      try {
        return await this.backend(body);
      } catch (err) {
        if (!(err instanceof BackendError) || !err.retriable || i >= attempts) throw err;
        await this.sleep(delay * (1 + Math.random() * 0.2));
        delay *= 1.5;
      }
    }
  }

  private cached(key: string): ImageReviewStatus | undefined {
    const e = this.cache.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.cache.delete(key);
      return undefined;
    }
    // Refresh its place: the least recently used entry is the one evicted.
    this.cache.delete(key);
    this.cache.set(key, e);
    return e.status;
  }

  private remember(key: string, status: ImageReviewStatus): void {
    const ttl = status.allowed ? this.cfg.allowTTLMs : this.cfg.denyTTLMs;
    if (ttl <= 0) return;
    this.cache.delete(key);
    this.cache.set(key, { status, expires: Date.now() + ttl });
    if (this.cache.size > cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}
