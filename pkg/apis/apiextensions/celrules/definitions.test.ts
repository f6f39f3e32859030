import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { JSONSchemaProps } from '../types.js';
import { validateRuleDefinitions } from './index.js';

const base = 'spec.validation.openAPIV3Schema';
const specPath = `${base}.properties[spec]`;
const goRule = (rule: string, extra = '') => `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:${JSON.stringify(extra)}, `
  + 'Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}';
const budgetHint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

function withSpec(spec: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { spec } };
}

const props: Record<string, JSONSchemaProps> = {
  name: { type: 'string', maxLength: 63 },
  replicas: { type: 'integer' },
  tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } },
};
const specWith = (rules: Array<Record<string, unknown>>, extra: Record<string, JSONSchemaProps> = {}) =>
  withSpec({ type: 'object', properties: { ...props, ...extra }, 'x-kubernetes-validations': rules });

const cases: Array<[string, JSONSchemaProps, string[]]> = [
  ['valid rules', specWith([{ rule: 'self.replicas >= 0' }, { rule: 'self.tags.all(t, t.startsWith("x"))' }, { rule: 'self.name == oldSelf.name' },
    { rule: 'self.replicas < 10', messageExpression: '"too many: " + self.name', fieldPath: '.replicas' }]), []],
  ['an undefined field', specWith([{ rule: 'self.size > 1' }]), [
    `${specPath}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.size > 1')}: compilation failed: ERROR: <input>:1:5: undefined field 'size'\n | self.size > 1\n | ....^`,
  ]],
  ['mismatched types', specWith([{ rule: 'self.replicas == "3"' }]), [
    `${specPath}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.replicas == "3"')}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'\n | self.replicas == "3"\n | ..............^`,
  ]],
  ['an undeclared function', specWith([{ rule: 'quantity(self.name) > 1' }]), [
    `${specPath}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('quantity(self.name) > 1')}: compilation failed: ERROR: <input>:1:1: undeclared reference to 'quantity' (in container '')\n | quantity(self.name) > 1\n | ^`,
  ]],
  ['a rule that is not a bool', specWith([{ rule: 'self.replicas + 1' }]), [
    `${specPath}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.replicas + 1')}: cel expression must evaluate to a bool`,
  ]],
  ['a messageExpression that is not a string', specWith([{ rule: 'true', messageExpression: 'self.replicas' }]), [
    `${specPath}.x-kubernetes-validations[0].messageExpression: Invalid value: ${goRule('true', 'self.replicas')}: messageExpression must evaluate to a string`,
  ]],
  ['a messageExpression that does not compile', specWith([{ rule: 'true', messageExpression: 'self.nope' }]), [
    `${specPath}.x-kubernetes-validations[0].messageExpression: Invalid value: ${goRule('true', 'self.nope')}: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope\n | ....^`,
  ]],
  ['an invalid fieldPath', specWith([{ rule: 'true', fieldPath: '.nope' }, { rule: 'true', fieldPath: 'replicas' }]), [
    `${specPath}.x-kubernetes-validations[0].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
    `${specPath}.x-kubernetes-validations[1].fieldPath: Invalid value: "replicas": fieldPath must be a valid path`,
  ]],
  ['oldSelf below an atomic list', withSpec({ type: 'object', properties: { items: { type: 'array', maxItems: 5,
    items: { type: 'object', properties: { v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.v == oldSelf.v' }] } } } }), [
    `${specPath}.properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self.v == oldSelf.v": oldSelf cannot be used on the uncorrelatable portion of the schema within ${specPath}.properties[items]`,
  ]],
  ['oldSelf below a map list is fine', withSpec({ type: 'object', properties: { items: { type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'],
    items: { type: 'object', required: ['k'], properties: { k: { type: 'string' }, v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.v == oldSelf.v' }] } } } }), []],
  ['an unbounded nested loop is over budget', withSpec({ type: 'object', properties: {
    l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists(y, x == y))' }] } } }), [
    `${specPath}.properties[l].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${budgetHint}`,
    `${specPath}.properties[l].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${base}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${budgetHint}`,
  ]],
  ['the same loop with bounds is within budget', withSpec({ type: 'object', properties: {
    l: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 64 }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists(y, x == y))' }] } } }), []],
  ['defaults must pass the rules', withSpec({ type: 'object', default: { size: -1 }, properties: {
    size: { type: 'integer', default: 0, 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'size must be positive' }] },
    mode: { type: 'string', default: 'b', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }, { rule: 'self in ["a"]' }] } } }), [
    `${specPath}.default.size: Invalid value: "integer": size must be positive`,
    `${specPath}.properties[size].default: Invalid value: "integer": size must be positive`,
    `${specPath}.properties[mode].default: Invalid value: "string": failed rule: self in ["a"]`,
  ]],
  ['form errors below keep the rules above from compiling', withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.nope' }],
    properties: { a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'true', fieldPath: '.x' }] } } }), [
    `${specPath}.properties[a].x-kubernetes-validations[0].fieldPath: Invalid value: ".x": fieldPath must be a valid path`,
  ]],
];

describe('celrules validateRuleDefinitions', () => {
  for (const [name, schema, want] of cases) {
    it(name, () => {
      expect(validateRuleDefinitions(schema, base).map((e) => fieldErrorMessage(e))).to.deep.equal(want);
    });
  }
});
