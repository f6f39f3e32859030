// Shared parts of the four reviews (upstream: pkg/apis/authorization/validation and
// pkg/registry/authorization/util): spec validation, spec -> authorizer attributes, and
// the status written back.
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes, Decision } from '../../authorization/interfaces.js';
import { invalid } from '../../apis/validation/field.js';
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { BaseStrategy } from '../generic/base-strategy.js';
import { validatePathSegmentName } from '../../apis/validation/names.js';

export const authorizationGroup = 'authorization.k8s.io';

export interface ResourceAttributes {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
}
export interface NonResourceAttributes { path?: string; verb?: string }

export interface ReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string;
  groups?: string[] | null;
  uid?: string;
  extra?: Record<string, string[]> | null;
}

export function specOf(obj: KubeObject): ReviewSpec {
  return isPlainObject(obj.spec) ? (obj.spec as ReviewSpec) : {};
}

/** Exactly one of resourceAttributes and nonResourceAttributes. */
export function validateAttributesChoice(spec: ReviewSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    // Upstream renders the nil pointer it reports as the string "null".
    errs.push(invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  return errs;
}

/** Upstream requires the metadata of a review to be empty (managedFields aside). */
export function metadataIsEmpty(obj: KubeObject, allowNamespace: boolean): boolean {
  for (const [k, v] of Object.entries(obj.metadata ?? {})) {
    if (k === 'managedFields' || (allowNamespace && k === 'namespace')) continue;
    if (v === null || v === undefined || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isPlainObject(v) && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}

export function attributesFor(user: UserInfo, spec: ReviewSpec): Attributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user, verb: r.verb ?? '', isResourceRequest: true, path: '', namespace: r.namespace ?? '', apiGroup: r.group ?? '',
      apiVersion: r.version || '*', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', namespace: '', apiGroup: '',
    apiVersion: '', resource: '', subresource: '', name: '' };
}

export function statusOf(d: Decision): Record<string, unknown> {
  const status: Record<string, unknown> = { allowed: d.decision === 'allow' };
  if (d.decision === 'deny') status.denied = true;
  if (d.reason) status.reason = d.reason;
  if (d.error) status.evaluationError = d.error;
  return status;
}

/** Reviews are never stored: this strategy only carries scope and defaults for decoding. */
export function reviewStrategy(namespaced: boolean): BaseStrategy {
  return new BaseStrategy({ namespaced, nameValidator: validatePathSegmentName });
}
