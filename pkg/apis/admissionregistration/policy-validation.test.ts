import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from './policy-defaults.js';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding } from './policy-validation.js';

const msgs = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));

function policy(spec: Record<string, unknown>, name = 'p'): KubeObject {
  const o: KubeObject = { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec };
  defaultValidatingAdmissionPolicy(o);
  return o;
}
const rules = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] };

describe('ValidatingAdmissionPolicy validation', () => {
  it('defaults failurePolicy, matchPolicy, selectors and rule scope', () => {
    const p = policy({ matchConstraints: structuredClone(rules), validations: [{ expression: 'true' }] });
    expect(p.spec).to.deep.equal({
      failurePolicy: 'Fail',
      matchConstraints: { ...rules, resourceRules: [{ ...rules.resourceRules[0], scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
      validations: [{ expression: 'true' }],
    });
    expect(validateValidatingAdmissionPolicy(p)).to.deep.equal([]);
  });

  it('requires matchConstraints with resourceRules and validations or auditAnnotations', () => {
    expect(msgs(validateValidatingAdmissionPolicy(policy({})))).to.deep.equal([
      'spec.matchConstraints: Required value',
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]);
    expect(msgs(validateValidatingAdmissionPolicy(policy({ matchConstraints: {}, validations: [{ expression: 'true' }] }))))
      .to.deep.equal(['spec.matchConstraints.resourceRules: Required value']);
  });

  it('reports expressions that do not compile, but not type errors', () => {
    const errs = msgs(validateValidatingAdmissionPolicy(policy({
      matchConstraints: structuredClone(rules),
      validations: [{ expression: 'params.x == 1' }, { expression: 'object.anything.at.all == 1', messageExpression: 'authorizer.path("/")' }],
    })));
    expect(errs).to.deep.equal([
      "spec.validations[0].expression: Invalid value: \"params.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^",
      "spec.validations[1].messageExpression: Invalid value: \"authorizer.path(\\\"/\\\")\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path(\"/\")\n | ^",
    ]);
    expect(validateValidatingAdmissionPolicy(policy({
      matchConstraints: structuredClone(rules), paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [{ name: 'x', expression: 'params.data.x' }],
      validations: [{ expression: 'variables.x == "1"' }],
    }))).to.deep.equal([]);
  });

  it('checks failurePolicy, reason, paramKind, variables and audit annotation keys', () => {
    const errs = msgs(validateValidatingAdmissionPolicy(policy({
      failurePolicy: 'Maybe', matchConstraints: structuredClone(rules), paramKind: { apiVersion: 'a/b/c', kind: '' },
      variables: [{ name: 'in', expression: '1' }],
      validations: [{ expression: 'true', reason: 'Teapot', message: 'a\nb' }],
      auditAnnotations: [{ key: 'k', valueExpression: "'v'" }, { key: 'k', valueExpression: "'w'" }],
    })));
    expect(errs).to.deep.equal([
      'spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      'spec.paramKind.kind: Required value',
      'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier',
      'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
      'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
      'spec.auditAnnotations[1].key: Duplicate value: "k"',
    ]);
  });
});

describe('ValidatingAdmissionPolicyBinding validation', () => {
  const b = (spec: Record<string, unknown>, apiVersion = 'admissionregistration.k8s.io/v1beta1'): KubeObject => {
    const o: KubeObject = { apiVersion, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec };
    defaultValidatingAdmissionPolicyBinding(o);
    return o;
  };

  it('requires policyName and validationActions, unique, not both Deny and Warn', () => {
    expect(msgs(validateValidatingAdmissionPolicyBinding(b({})))).to.deep.equal([
      'spec.policyName: Required value',
      'spec.validationActions: Required value: at least one validation action is required',
    ]);
    expect(msgs(validateValidatingAdmissionPolicyBinding(b({ policyName: 'p', validationActions: ['Deny', 'Deny', 'Warn', 'Log'] })))).to.deep.equal([
      'spec.validationActions[1]: Duplicate value: "Deny"',
      'spec.validationActions[3]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions: Invalid value: []string{"Deny", "Deny", "Warn", "Log"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });

  it('checks paramRef: name or selector, not both; parameterNotFoundAction required in v1beta1, defaulted in v1alpha1', () => {
    expect(msgs(validateValidatingAdmissionPolicyBinding(b({ policyName: 'p', validationActions: ['Deny'], paramRef: {} })))).to.deep.equal([
      'spec.paramRef: Required value: one of name or selector must be specified',
      'spec.paramRef.parameterNotFoundAction: Required value',
    ]);
    expect(msgs(validateValidatingAdmissionPolicyBinding(b({ policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'x', selector: {} } },
      'admissionregistration.k8s.io/v1alpha1')))).to.deep.equal([
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    ]);
  });
});
