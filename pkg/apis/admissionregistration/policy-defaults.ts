// admissionregistration.k8s.io v1alpha1/v1beta1 defaulting of ValidatingAdmissionPolicy
// and its binding (upstream: SetDefaults_ValidatingAdmissionPolicySpec,
// SetDefaults_MatchResources, SetDefaults_Rule, and v1alpha1's SetDefaults_ParamRef).
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

type Obj = Record<string, unknown>;

export function defaultMatchResources(mr: unknown): void {
  if (!isPlainObject(mr)) return;
  mr.matchPolicy ??= 'Equivalent';
  if (!isPlainObject(mr.namespaceSelector)) mr.namespaceSelector = {};
  if (!isPlainObject(mr.objectSelector)) mr.objectSelector = {};
  for (const list of [mr.resourceRules, mr.excludeResourceRules]) {
    if (Array.isArray(list)) for (const r of list) if (isPlainObject(r)) r.scope ??= '*';
  }
}

export function defaultValidatingAdmissionPolicy(obj: KubeObject): void {
  const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
  if (!spec) return;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

export function defaultValidatingAdmissionPolicyBinding(obj: KubeObject): void {
  const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
  if (!spec) return;
  defaultMatchResources(spec.matchResources);
  // Only v1alpha1 defaults the action; v1beta1 requires it to be set.
  if (obj.apiVersion === 'admissionregistration.k8s.io/v1alpha1' && isPlainObject(spec.paramRef)) {
    (spec.paramRef as Obj).parameterNotFoundAction ??= 'Deny';
  }
}
