// What both webhook plugins share (upstream's generic.Webhook): deciding whether a hook
// applies to a request (rules, matchPolicy Equivalent, selectors, matchConditions) and
// making the call, with upstream's error kinds: CallingWebhookError is subject to
// failurePolicy, a denial or an internal error is not.
import { randomUUID } from 'node:crypto';
import type { Authorizer } from '../../../authorization/interfaces.js';
import { errors, StatusError, type StatusReason } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import { unexpectedStatus } from '../../../util/webhook/client.js';
import { CallingWebhookError } from './client.js';
import type { WebhookMetrics, WebhookType } from './metrics.js';
import { admissionRequest, reviewBody, verifyReview, withTypeMeta, type ReviewResult, type ReviewTarget } from './review.js';
import { namespaceSelectorMatches, objectSelectorMatches, type NamespaceLabelSource } from './selectors.js';
import type { CompiledHook } from './source.js';
import type { GVR } from './types.js';

/** A served resource stored together with the request's (another group or version of it). */
export interface EquivalentResource extends GVR {
  kind: string;
}

/** Upstream's equivalent resource mapper and object convertor, over the scheme. */
export interface ResourceEquivalence {
  /** Equivalents other than the resource itself; usually empty. */
  equivalents(group: string, version: string, resource: string): readonly EquivalentResource[];
  /** `obj` (of `from`) as the other version's object. */
  convert(obj: KubeObject, from: GVR, to: GVR): KubeObject;
}

export interface DispatchDeps {
  namespaces: NamespaceLabelSource;
  equivalence: ResourceEquivalence;
  metrics: WebhookMetrics;
  authorizer?: Authorizer;
}

export interface Invocation extends ReviewTarget {
  hook: CompiledHook;
  /** True when the hook is called for an equivalent resource: objects are converted. */
  converted: boolean;
}

/** The rules step, synchronous and allocation-free when nothing matches (the common case). */
export function matchTarget(hook: CompiledHook, attrs: AdmissionAttributes, d: DispatchDeps): Invocation | undefined {
  let inv: Invocation | undefined;
  if (hook.rules(attrs)) {
    inv = {
      hook, converted: false, subResource: attrs.subresource,
      kind: { group: attrs.group, version: attrs.version, kind: attrs.kind },
      resource: { group: attrs.group, version: attrs.version, resource: attrs.resource },
    };
  } else if (hook.equivalent) {
    for (const eq of d.equivalence.equivalents(attrs.group, attrs.version, attrs.resource)) {
      if (!hook.rules({ ...attrs, group: eq.group, version: eq.version, resource: eq.resource })) continue;
      // A subresource with a kind of its own (Scale) keeps it; otherwise the equivalent's kind.
      const ownKind = attrs.subresource === '' || attrs.kind === eq.kind;
      inv = {
        hook, converted: ownKind, subResource: attrs.subresource,
        kind: ownKind ? { group: eq.group, version: eq.version, kind: eq.kind } : { group: attrs.group, version: attrs.version, kind: attrs.kind },
        resource: { group: eq.group, version: eq.version, resource: eq.resource },
      };
      break;
    }
  }
  return inv;
}

/** The remaining steps for a hook whose rules matched: selectors, then matchConditions. */
export async function shouldCall(inv: Invocation, attrs: AdmissionAttributes, d: DispatchDeps): Promise<boolean> {
  const hook = inv.hook;
  if (hook.compileError) throw errors.internal(hook.compileError);
  if (!objectSelectorMatches(hook.objectSelector, attrs)) return false;
  if (!await namespaceSelectorMatches(hook.namespaceSelector, attrs, d.namespaces)) return false;
  const conditions = hook.matchConditions();
  if (conditions) {
    const v = versioned(inv, attrs, d);
    try {
      if (!await conditions({ object: v.object, oldObject: v.oldObject, request: admissionRequest('', inv, attrs), authorizer: d.authorizer })) return false;
    } catch (err) {
      if (hook.failOpen) return false;
      throw errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, err instanceof Error ? err.message : String(err));
    }
  }
  return true;
}

/** The objects as the webhook sees them: in the invocation's version, with apiVersion and kind. */
export function versioned(inv: Invocation, attrs: AdmissionAttributes, d: DispatchDeps): { object: KubeObject | null; oldObject: KubeObject | null } {
  if (!inv.converted) return { object: withTypeMeta(attrs.object, inv.kind), oldObject: withTypeMeta(attrs.oldObject, inv.kind) };
  const from = { group: attrs.group, version: attrs.version, resource: attrs.resource };
  const conv = (o: KubeObject | undefined) => (o ? withTypeMeta(d.equivalence.convert(o, from, inv.resource), inv.kind) : null);
  return { object: conv(attrs.object), oldObject: conv(attrs.oldObject) };
}

/** Upstream's webhookerrors.ToStatusErr: a denial, at least 400, in the webhook's words. */
export function denial(webhookName: string, status: ReviewResult['status']): StatusError {
  const s = status ?? {};
  const code = typeof s.code === 'number' && s.code >= 400 ? s.code : 400;
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const message = s.message ? `${deniedBy}: ${s.message}` : s.reason ? `${deniedBy}: ${s.reason}` : `${deniedBy} without explanation`;
  return new StatusError(code, (s.reason ?? '') as StatusReason, message, s.details as StatusError['details']);
}

/** A webhook that may have side effects cannot see a dry run. */
export function checkDryRun(hook: CompiledHook, attrs: AdmissionAttributes): void {
  if (!attrs.dryRun) return;
  const se = hook.spec.sideEffects;
  if (se === 'None' || se === 'NoneOnDryRun') return;
  throw errors.badRequest(`admission webhook "${hook.name}" does not support dry run`);
}

/** Sends the review and verifies the reply; CallingWebhookError for every transport-level failure. */
export async function callWebhook(inv: Invocation, attrs: AdmissionAttributes, object: KubeObject | null,
  oldObject: KubeObject | null, mutating: boolean): Promise<ReviewResult> {
  const hook = inv.hook;
  const version = hook.reviewVersion;
  if (!version) {
    throw new CallingWebhookError(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions',
      errors.badRequest('error creating admission objects'));
  }
  const uid = randomUUID();
  const body = reviewBody(version, admissionRequest(uid, inv, attrs), object, oldObject, attrs);
  let endpoint;
  try {
    endpoint = hook.endpoint();
  } catch (err) {
    throw new CallingWebhookError(hook.name, `could not get REST client: ${(err as Error).message}`, errors.internal(err));
  }
  let res;
  try {
    res = await hook.client.post(endpoint, body, hook.timeoutSeconds);
  } catch (err) {
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${(err as Error).message}`, errors.serviceUnavailable('error calling webhook'));
  }
  if (res.status < 200 || res.status > 299) {
    const se = unexpectedStatus(res);
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${se.message}`, se);
  }
  try {
    return verifyReview(version, uid, mutating, res.body);
  } catch (err) {
    throw new CallingWebhookError(hook.name, `received invalid webhook response: ${(err as Error).message}`,
      errors.serviceUnavailable('error validating webhook response'));
  }
}

/** Records the webhook's audit annotations (`<webhook>/<key>`) and warnings on the request. */
export function recordResult(hook: CompiledHook, result: ReviewResult, attrs: AdmissionAttributes): void {
  if (attrs.auditAnnotations) {
    // As upstream, an annotation already set (by an earlier webhook or round) is kept.
    for (const [k, v] of Object.entries(result.auditAnnotations)) attrs.auditAnnotations[`${hook.name}/${k}`] ??= v;
  }
  if (attrs.warnings) for (const w of result.warnings) attrs.warnings.push(w);
}

/** Metrics for one finished call, by upstream's error classes. */
export function observe(metrics: WebhookMetrics, type: WebhookType, hook: CompiledHook, attrs: AdmissionAttributes,
  started: number, err: unknown): void {
  const seconds = (performance.now() - started) / 1000;
  if (err === undefined) {
    metrics.observe(hook.name, type, attrs.operation, seconds, false, 200);
  } else if (err instanceof CallingWebhookError) {
    if (!hook.failOpen) metrics.rejection(hook.name, type, attrs.operation, 'calling_webhook_error', err.status.code);
    metrics.observe(hook.name, type, attrs.operation, seconds, !hook.failOpen, err.status.code);
  } else if (err instanceof DenialError) {
    metrics.rejection(hook.name, type, attrs.operation, 'no_error', err.status.code);
    metrics.observe(hook.name, type, attrs.operation, seconds, true, err.status.code);
  } else {
    metrics.rejection(hook.name, type, attrs.operation, 'apiserver_internal_error', 0);
    metrics.observe(hook.name, type, attrs.operation, seconds, true, 0);
  }
}

/** The webhook said no (upstream's ErrWebhookRejection). */
export class DenialError extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
  }
}

/** Failing closed: upstream wraps the calling error in an internal error (500). */
export function failClosed(err: CallingWebhookError): StatusError {
  return errors.internal(err);
}
