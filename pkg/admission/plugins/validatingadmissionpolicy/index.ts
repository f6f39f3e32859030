// The ValidatingAdmissionPolicy admission plugin (upstream v1.28, behind the
// ValidatingAdmissionPolicy feature gate): every policy whose matchConstraints select the
// request is evaluated once per matching binding and per param object the binding
// selects; failed validations are enforced by the binding's validationActions — Deny
// rejects (first denial wins), Warn adds a Warning header, Audit adds the
// validation_failure audit annotation.
import { randomUUID } from 'node:crypto';
import type { CelInput } from '@bufbuild/cel';
import type { Authorizer } from '../../../authorization/interfaces.js';
import { AuthzSession } from '../../../cel/library/authz.js';
import { toCel, toCelObject } from '../../../cel/value.js';
import { StatusError, type StatusReason } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { syncedWithin, type Syncable } from '../../../util/resolved-within.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { compilePolicy, type CompiledPolicy } from './compiled.js';
import { matchResources, type MatchContext } from './matching.js';
import { collectParams, type ParamResolver } from './params.js';
import { validatePolicy, type PolicyDecision } from './validator.js';

export const validationFailureAnnotation = 'validation.policy.admission.k8s.io/validation_failure';
const maxAuditAnnotationValueLength = 10 * 1024;
const syncTimeoutMs = 10_000;

export interface ObjectCache extends Syncable {
  list(): KubeObject[];
}

export interface ValidatingAdmissionPolicyDeps {
  policies: ObjectCache;
  bindings: ObjectCache;
  match: MatchContext;
  params: ParamResolver;
  authorizer?: Authorizer;
}

/** Requests on admission configuration itself are never subject to policies (upstream's exemption). */
const exempt = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations',
  'validatingadmissionpolicies', 'validatingadmissionpolicybindings']);

const reasonCodes: Record<string, number> = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 };

interface Denial { policy: string; binding?: string; message: string; reason: string }

export class ValidatingAdmissionPolicy implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  private compiled = new Map<string, { rv: string; policy: CompiledPolicy }>();

  constructor(private readonly d: ValidatingAdmissionPolicyDeps) {}

  handles(_op: Operation): boolean {
    return true;
  }

  private compiledFor(p: KubeObject): CompiledPolicy {
    const key = p.metadata.name ?? '';
    const rv = p.metadata.resourceVersion ?? '';
    const hit = this.compiled.get(key);
    if (hit && hit.rv === rv) return hit.policy;
    const policy = compilePolicy(p);
    this.compiled.set(key, { rv, policy });
    return policy;
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group === 'admissionregistration.k8s.io' && exempt.has(a.resource)) return;
    if (!await syncedWithin([this.d.policies, this.d.bindings], syncTimeoutMs)) throw admissionForbidden(a, 'not yet ready to handle request');
    const policies = this.d.policies.list().sort(byName);
    if (policies.length === 0) return;
    const bindings = this.d.bindings.list().sort(byName);
    const denials: Denial[] = [];
    let activation: Record<string, CelInput> | undefined;
    for (const p of policies) {
      const policy = this.compiledFor(p);
      if (!await matchResources(policy.matchConstraints, a, this.d.match, true)) continue;
      if (policy.paramKind && !this.d.params(policy.paramKind.apiVersion, policy.paramKind.kind)) {
        const gv = policy.paramKind.apiVersion.includes('/') ? policy.paramKind.apiVersion : `/${policy.paramKind.apiVersion}`;
        const why = `failed to configure policy: failed to find resource referenced by paramKind: '${gv}, Kind=${policy.paramKind.kind}'`;
        if (policy.failurePolicy === 'Fail') denials.push({ policy: policy.name, message: why, reason: '' });
        continue;
      }
      const annotations = new Map<string, string[]>();
      for (const b of bindings) {
        const bspec = isPlainObject(b.spec) ? b.spec : {};
        if (bspec.policyName !== policy.name) continue;
        if (isPlainObject(bspec.matchResources) && !await matchResources(bspec.matchResources, a, this.d.match, false)) continue;
        await this.d.params(policy.paramKind?.apiVersion ?? '', policy.paramKind?.kind ?? '')?.ready();
        const params = collectParams(policy.paramKind, b, a.namespace, this.d.params);
        if (params.error !== undefined) {
          if (policy.failurePolicy === 'Fail') {
            denials.push({ policy: policy.name, binding: b.metadata.name, message: `failed to configure binding: ${params.error}`, reason: '' });
          }
          continue;
        }
        activation ??= await this.activation(a);
        const actions = Array.isArray(bspec.validationActions) ? bspec.validationActions.map(String) : [];
        for (const param of params.params) {
          const result = await validatePolicy(policy, {
            activation: { ...activation, params: paramValue(param, policy) },
            authorizer: this.d.authorizer ? () => ({
              session: new AuthzSession(this.d.authorizer!, a.user),
              request: { group: a.group, resource: a.resource, subresource: a.subresource, namespace: a.namespace, name: a.name },
            }) : undefined,
          });
          for (const dec of result.decisions) {
            if (dec.action !== 'deny') continue;
            this.enforce(dec, actions, policy, b, a, denials);
          }
          for (const ann of result.auditAnnotations) {
            if (ann.error !== undefined) {
              if (policy.failurePolicy === 'Fail') denials.push({ policy: policy.name, binding: b.metadata.name, message: ann.error, reason: '' });
              continue;
            }
            const value = (ann.value ?? '').slice(0, maxAuditAnnotationValueLength);
            const values = annotations.get(ann.key) ?? [];
            if (!values.includes(value)) values.push(value);
            annotations.set(ann.key, values);
          }
        }
      }
      for (const [k, values] of annotations) addAnnotation(a, `${policy.name}/${k}`, values.join(', '));
    }
    if (denials.length > 0) throw denialError(a, denials[0]!);
  }

  private enforce(dec: PolicyDecision, actions: string[], policy: CompiledPolicy, b: KubeObject, a: AdmissionAttributes, denials: Denial[]): void {
    const bindingName = b.metadata.name ?? '';
    for (const action of actions) {
      if (action === 'Deny') denials.push({ policy: policy.name, binding: bindingName, message: dec.message, reason: dec.reason });
      else if (action === 'Warn') {
        a.warnings?.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${bindingName}': ${dec.message}`);
      } else if (action === 'Audit') {
        addAnnotation(a, validationFailureAnnotation, JSON.stringify([{
          message: dec.message, policy: policy.name, binding: bindingName, expressionIndex: Math.max(0, dec.index), validationActions: actions,
        }]));
      }
    }
  }

  private async activation(a: AdmissionAttributes): Promise<Record<string, CelInput>> {
    const isNamespace = a.group === '' && a.resource === 'namespaces';
    const ns = a.namespace && !isNamespace ? await this.d.match.namespace(a.namespace) : undefined;
    return {
      object: toCelObject(a.operation === 'DELETE' ? null : a.object ?? null, a.group, a.version, a.kind),
      oldObject: toCelObject(a.operation === 'CREATE' ? null : a.oldObject ?? null, a.group, a.version, a.kind),
      request: toCel(admissionRequest(a)),
      namespaceObject: toCelObject(ns ?? null, '', 'v1', 'Namespace'),
    };
  }
}

/** Params typed by paramKind's schema, with apiVersion and kind filled in as upstream does. */
function paramValue(param: KubeObject | null, policy: CompiledPolicy): CelInput {
  if (!param || !policy.paramKind) return null;
  const { apiVersion, kind } = policy.paramKind;
  const [g, v] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  return toCelObject({ apiVersion, kind, ...param }, g, v, kind);
}

function byName(x: KubeObject, y: KubeObject): number {
  return (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '');
}

/** Upstream refuses to overwrite an annotation already set: the first value stays. */
function addAnnotation(a: AdmissionAttributes, key: string, value: string): void {
  if (!a.auditAnnotations || key in a.auditAnnotations) return;
  a.auditAnnotations[key] = value;
}

function denialError(a: AdmissionAttributes, d: Denial): StatusError {
  const message = d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const base = admissionForbidden(a, message);
  const reason = (d.reason || 'Invalid') as StatusReason;
  return new StatusError(reasonCodes[reason] ?? 500, reason, base.message,
    { ...base.details, causes: [...(base.details?.causes ?? []), { message }] });
}

/** The AdmissionRequest as CEL's `request` sees it (no object or oldObject: they are variables of their own). */
export function admissionRequest(a: AdmissionAttributes): Record<string, unknown> {
  const kind = { group: a.group, version: a.version, kind: a.kind };
  const resource = { group: a.group, version: a.version, resource: a.resource };
  return {
    uid: randomUUID(),
    kind, resource, ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: kind, requestResource: resource, ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    name: a.name, namespace: a.namespace, operation: a.operation,
    userInfo: { username: a.user.name, ...(a.user.uid ? { uid: a.user.uid } : {}), groups: a.user.groups, ...(a.user.extra ? { extra: a.user.extra } : {}) },
    dryRun: a.dryRun,
    ...(a.options ? { options: a.options } : {}),
  };
}
