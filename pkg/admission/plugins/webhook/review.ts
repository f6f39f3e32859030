// AdmissionReview exchange (upstream's request.CreateAdmissionObjects and
// VerifyAdmissionResponse), for admission.k8s.io/v1 and v1beta1.
import type { KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { GVK, GVR } from './types.js';

export type ReviewVersion = 'v1' | 'v1beta1';

/** First of the webhook's versions the server speaks (validation guarantees one). */
export function negotiateReviewVersion(accepted: string[] | undefined): ReviewVersion | undefined {
  for (const v of accepted ?? ['v1beta1']) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

export interface ReviewTarget {
  kind: GVK;
  resource: GVR;
  subResource: string;
}

const optionKinds: Record<string, string | undefined> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

/** The AdmissionRequest minus object/oldObject (match conditions read it too). */
export function admissionRequest(uid: string, target: ReviewTarget, attrs: AdmissionAttributes): Record<string, unknown> {
  const req: Record<string, unknown> = {
    uid,
    kind: target.kind,
    resource: target.resource,
  };
  if (target.subResource) req.subResource = target.subResource;
  req.requestKind = { group: attrs.group, version: attrs.version, kind: attrs.kind };
  req.requestResource = { group: attrs.group, version: attrs.version, resource: attrs.resource };
  if (attrs.subresource) req.requestSubResource = attrs.subresource;
  if (attrs.name) req.name = attrs.name;
  // Upstream's request info names a Namespace's own namespace after it on every path but the collection's.
  const namespace = attrs.group === '' && attrs.resource === 'namespaces' && attrs.operation !== 'CREATE' ? attrs.name : attrs.namespace;
  if (namespace) req.namespace = namespace;
  req.operation = attrs.operation;
  const u = attrs.user;
  const userInfo: Record<string, unknown> = { username: u.name };
  if (u.uid) userInfo.uid = u.uid;
  if (u.groups.length > 0) userInfo.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length > 0) userInfo.extra = u.extra;
  req.userInfo = userInfo;
  return req;
}

export function withTypeMeta(obj: KubeObject | undefined, kind: GVK): KubeObject | null {
  if (!obj) return null;
  return { ...obj, apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version, kind: kind.kind };
}

export function reviewBody(version: ReviewVersion, request: Record<string, unknown>, object: KubeObject | null,
  oldObject: KubeObject | null, attrs: AdmissionAttributes): string {
  const req: Record<string, unknown> = { ...request };
  if (object) req.object = object;
  if (oldObject) req.oldObject = oldObject;
  req.dryRun = attrs.dryRun;
  const optionsKind = optionKinds[attrs.operation];
  if (optionsKind) req.options = { kind: optionsKind, apiVersion: 'meta.k8s.io/v1', ...(attrs.options ?? {}) };
  else if (attrs.options) req.options = attrs.options;
  return JSON.stringify({ kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request: req });
}

export interface ReviewStatus {
  code?: number;
  message?: string;
  reason?: string;
  status?: string;
  details?: Record<string, unknown>;
}

export interface ReviewResult {
  allowed: boolean;
  status?: ReviewStatus;
  /** The patch (base64-decoded JSON text), when the webhook sent one. */
  patch?: string;
  patchType?: string;
  auditAnnotations: Record<string, string>;
  warnings: string[];
}

/** Throws Error with upstream's reason text when the reply is not a usable review. */
export function verifyReview(version: ReviewVersion, uid: string, mutating: boolean, body: string): ReviewResult {
  let review: { apiVersion?: string; kind?: string; response?: Record<string, unknown> | null };
  try {
    review = JSON.parse(body) as typeof review;
  } catch (err) {
    throw new Error(`couldn't decode response: ${(err as Error).message}`, { cause: err });
  }
  const r = review?.response;
  if (!r || typeof r !== 'object') throw new Error('webhook response was absent');
  if (version === 'v1') {
    if (r.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(r.uid ?? '')}`);
    if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') {
      const gv = review.apiVersion ?? '';
      const slash = gv.indexOf('/');
      const gvk = slash < 0 ? `${gv ? `/${gv}` : '/'}, Kind=${review.kind ?? ''}` : `${gv}, Kind=${review.kind ?? ''}`;
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvk}`);
    }
  }
  const patch = typeof r.patch === 'string' && r.patch !== '' ? Buffer.from(r.patch, 'base64').toString('utf8') : undefined;
  let patchType = typeof r.patchType === 'string' ? r.patchType : undefined;
  if (version === 'v1beta1' && patch && !patchType) patchType = 'JSONPatch';
  if (mutating) {
    if (patchType && !patch) throw new Error('webhook returned response.patchType but not response.patch');
    if (patch && !patchType) throw new Error('webhook returned response.patch but not response.patchType');
    if (patchType && patchType !== 'JSONPatch') throw new Error(`webhook returned invalid response.patchType of ${JSON.stringify(patchType)}`);
  } else {
    if (patchType) throw new Error('validating webhook may not return response.patchType');
    if (patch) throw new Error('validating webhook may not return response.patch');
  }
  const auditAnnotations: Record<string, string> = {};
  if (r.auditAnnotations && typeof r.auditAnnotations === 'object') {
    for (const [k, v] of Object.entries(r.auditAnnotations as Record<string, unknown>)) if (typeof v === 'string') auditAnnotations[k] = v;
  }
  const warnings = Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === 'string' && w !== '') : [];
  return {
    allowed: r.allowed === true,
    status: r.status && typeof r.status === 'object' ? r.status as ReviewStatus : undefined,
    patch, patchType, auditAnnotations, warnings,
  };
}
