// admissionregistration.k8s.io v1beta1 and v1alpha1 validatingadmissionpolicies (with
// status) and validatingadmissionpolicybindings. Upstream v1.28 serves neither version
// unless --runtime-config turns it on (pkg/registry/authentication/enablement.ts); both
// versions have the same fields and share one stored object (v1beta1 first, so stored as v1beta1).
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { KubeObject } from '../../../runtime/object.js';
import { ValidatingAdmissionPolicyBindingStrategy, ValidatingAdmissionPolicyStrategy } from './strategy.js';
import { bindingTable, policyTable } from './table.js';

const group = 'admissionregistration.k8s.io';

function toVersion(version: string): (obj: KubeObject) => KubeObject {
  return (obj) => ({ ...structuredClone(obj), apiVersion: `${group}/${version}` });
}

function policies(version: string): ResourceDef {
  return {
    group, version, kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', singular: 'validatingadmissionpolicy',
    namespaced: false, verbs: [...allVerbs], categories: ['api-extensions'],
    subresources: [{ name: 'status', kind: 'ValidatingAdmissionPolicy', verbs: ['get', 'patch', 'update'] }],
    strategy: new ValidatingAdmissionPolicyStrategy(), table: policyTable,
  };
}

function bindings(version: string): ResourceDef {
  return {
    group, version, kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings',
    singular: 'validatingadmissionpolicybinding', namespaced: false, verbs: [...allVerbs], categories: ['api-extensions'],
    strategy: new ValidatingAdmissionPolicyBindingStrategy(), table: bindingTable,
  };
}

const viaV1beta1 = (version: string): ResourceDef['conversion'] => ({ toStorage: toVersion('v1beta1'), fromStorage: toVersion(version) });

export const validatingadmissionpoliciesV1beta1 = policies('v1beta1');
export const validatingadmissionpolicybindingsV1beta1 = bindings('v1beta1');
export const validatingadmissionpoliciesV1alpha1: ResourceDef = { ...policies('v1alpha1'), conversion: viaV1beta1('v1alpha1') };
export const validatingadmissionpolicybindingsV1alpha1: ResourceDef = { ...bindings('v1alpha1'), conversion: viaV1beta1('v1alpha1') };
