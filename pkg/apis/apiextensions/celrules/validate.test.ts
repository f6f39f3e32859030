import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { JSONSchemaProps } from '../types.js';
import { compileRules, validateRules } from './index.js';

const rules = (...r: Array<string | Record<string, unknown>>) => r.map((x) => (typeof x === 'string' ? { rule: x } : x));

/** A CR schema whose spec has the given properties and rules. */
function crSchema(props: Record<string, JSONSchemaProps>, specRules: Array<Record<string, unknown>> = [], rootRules: Array<Record<string, unknown>> = []): JSONSchemaProps {
  const spec: JSONSchemaProps = { type: 'object', properties: props };
  if (specRules.length > 0) spec['x-kubernetes-validations'] = specRules;
  const root: JSONSchemaProps = { type: 'object', properties: { spec } };
  if (rootRules.length > 0) root['x-kubernetes-validations'] = rootRules;
  return root;
}

function run(schema: JSONSchemaProps, spec: unknown, oldSpec?: unknown, meta = { name: 'w1' }): string[] {
  const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta, spec };
  const old = oldSpec === undefined ? undefined : { ...obj, spec: oldSpec };
  return validateRules(compileRules(schema), obj, old).map((e) => fieldErrorMessage(e));
}

const int: JSONSchemaProps = { type: 'integer' };
const str: JSONSchemaProps = { type: 'string' };

type Case = [name: string, schema: JSONSchemaProps, spec: unknown, old: unknown, want: string[]];

const cases: Case[] = [
  ['a passing rule', crSchema({ replicas: int }, rules('self.replicas >= 0')), { replicas: 1 }, undefined, []],
  ['the default message names the rule', crSchema({ replicas: int }, rules('self.replicas >= 0')), { replicas: -1 }, undefined,
    ['spec: Invalid value: "object": failed rule: self.replicas >= 0']],
  ['a root rule is reported at the nil path, metadata.name is visible', crSchema({}, [], rules('self.metadata.name.startsWith("x")')), {}, undefined,
    ['<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith("x")']],
  ['apiVersion and kind are visible at the root', crSchema({}, [], rules('self.kind == "Widget" && self.apiVersion == "example.com/v1"')), {}, undefined, []],
  ['message is trimmed', crSchema({ replicas: int }, rules({ rule: 'self.replicas >= 0', message: ' must not be negative ' })), { replicas: -1 }, undefined,
    ['spec: Invalid value: "object": must not be negative']],
  ['the value printed is the schema type', crSchema({ name: { type: 'string', 'x-kubernetes-validations': rules('self.size() < 3') } }), { name: 'long' }, undefined,
    ['spec.name: Invalid value: "string": failed rule: self.size() < 3']],
  ['reason FieldValueForbidden', crSchema({ a: int }, rules({ rule: 'self.a == 0', message: 'no a', reason: 'FieldValueForbidden' })), { a: 1 }, undefined,
    ['spec: Forbidden: no a']],
  ['reason FieldValueRequired', crSchema({ a: int }, rules({ rule: 'has(self.a)', message: 'a is required', reason: 'FieldValueRequired' })), {}, undefined,
    ['spec: Required value: a is required']],
  ['reason FieldValueDuplicate drops the message', crSchema({ a: int }, rules({ rule: 'self.a == 0', message: 'dup', reason: 'FieldValueDuplicate' })), { a: 1 }, undefined,
    ['spec: Duplicate value: "object"']],
  ['reason FieldValueInvalid', crSchema({ a: int }, rules({ rule: 'self.a == 0', reason: 'FieldValueInvalid' })), { a: 1 }, undefined,
    ['spec: Invalid value: "object": failed rule: self.a == 0']],
  ['fieldPath moves the error', crSchema({ min: int, max: int }, rules({ rule: 'self.min <= self.max', message: 'min above max', fieldPath: '.max' })), { min: 2, max: 1 }, undefined,
    ['spec.max: Invalid value: "object": min above max']],
  ['fieldPath through a map key', crSchema({ labels: { type: 'object', additionalProperties: str } }, rules({ rule: '!("a.b" in self.labels)', fieldPath: ".labels['a.b']" })),
    { labels: { 'a.b': 'x' } }, undefined, ['spec.labels[a.b]: Invalid value: "object": failed rule: !("a.b" in self.labels)']],
  ['messageExpression', crSchema({ replicas: int }, rules({ rule: 'self.replicas < 5', messageExpression: '"replicas is " + string(self.replicas) + ", at most 4 allowed"' })),
    { replicas: 7 }, undefined, ['spec: Invalid value: "object": replicas is 7, at most 4 allowed']],
  ['a messageExpression that fails falls back to message', crSchema({ a: int, b: int }, rules({ rule: 'self.a < 5', message: 'a too big', messageExpression: '"b is " + string(self.b)' })),
    { a: 7 }, undefined, ['spec: Invalid value: "object": a too big']],
  ['an empty messageExpression result falls back to the default', crSchema({ a: int }, rules({ rule: 'self.a < 5', messageExpression: '" "' })),
    { a: 7 }, undefined, ['spec: Invalid value: "object": failed rule: self.a < 5']],
  ['a missing field is a runtime error', crSchema({ a: int }, rules('self.a > 0')), {}, undefined,
    ['spec: Invalid value: "object": no such key: a evaluating rule: self.a > 0']],
  ['the message names the rule in runtime errors', crSchema({ a: int }, rules({ rule: 'self.a > 0', message: 'a must be positive' })), {}, undefined,
    ['spec: Invalid value: "object": no such key: a evaluating rule: a must be positive']],
  ['an index out of bounds', crSchema({ l: { type: 'array', items: int } }, rules('self.l[2] == 1')), { l: [1] }, undefined,
    ['spec: Invalid value: "object": index out of bounds: 2 evaluating rule: self.l[2] == 1']],
  ['division by zero and overflow', crSchema({ a: int, b: int }, rules('self.a / self.b == 1', 'self.a + 9223372036854775807 > 0')), { a: 1, b: 0 }, undefined, [
    'spec: Invalid value: "object": division by zero evaluating rule: self.a / self.b == 1',
    'spec: Invalid value: "object": integer overflow evaluating rule: self.a + 9223372036854775807 > 0',
  ]],
  ['int-or-string is dyn: a wrong type is a runtime overload error',
    crSchema({ port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': rules('self > 0') } }), { port: 'http' }, undefined,
    ['spec.port: Invalid value: "": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self > 0']],
  ['int-or-string with a type guard', crSchema({ port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': rules('type(self) == string ? self.matches("^[a-z]+$") : self > 0') } }),
    { port: 'http' }, undefined, []],
  ['numbers are doubles even when integral', crSchema({ ratio: { type: 'number', 'x-kubernetes-validations': rules('self < 1.0') } }), { ratio: 2 }, undefined,
    ['spec.ratio: Invalid value: "number": failed rule: self < 1.0']],
  ['maps via additionalProperties, checked per key', crSchema({ limits: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': rules('self <= 10') } } }),
    { limits: { cpu: 4, mem: 20 } }, undefined, ['spec.limits[mem]: Invalid value: "integer": failed rule: self <= 10']],
  ['list items are checked by index', crSchema({ ports: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': rules('self < 1024') } } }),
    { ports: [80, 8080] }, undefined, ['spec.ports[1]: Invalid value: "integer": failed rule: self < 1024']],
  ['escaped property names', crSchema({ 'foo-bar': int, namespace: int }, rules('self.foo__dash__bar + self.__namespace__ == 3')), { 'foo-bar': 1, namespace: 2 }, undefined, []],
  ['date-time is a timestamp', crSchema({ at: { type: 'string', format: 'date-time', 'x-kubernetes-validations': rules('self > timestamp("2020-01-01T00:00:00Z")') } }),
    { at: '2019-06-01T00:00:00Z' }, undefined, ['spec.at: Invalid value: "string": failed rule: self > timestamp("2020-01-01T00:00:00Z")']],
  ['duration', crSchema({ ttl: { type: 'string', format: 'duration', 'x-kubernetes-validations': rules('self <= duration("1h")') } }),
    { ttl: '90m' }, undefined, ['spec.ttl: Invalid value: "string": failed rule: self <= duration("1h")']],
  ['embedded resources see apiVersion, kind and metadata.name',
    crSchema({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': rules('self.kind == "Pod" && self.metadata.name != ""') } }),
    { tmpl: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } } }, undefined, ['spec.tmpl: Invalid value: "object": failed rule: self.kind == "Pod" && self.metadata.name != ""']],
  ['Kubernetes list, regex and url libraries', crSchema({ l: { type: 'array', items: int }, s: str, u: str },
    rules('self.l.isSorted() && self.l.max() == 3 && self.s.find("[0-9]+") == "42" && url(self.u).getHost() == "example.com" && isURL(self.u)')),
    { l: [1, 2, 3], s: 'abc42', u: 'https://example.com/x' }, undefined, []],
  ['strings extension', crSchema({ s: str }, rules('self.s.split(",").size() == 2 && self.s.upperAscii() == "A,B"')), { s: 'a,b' }, undefined, []],
  ['null values are not validated', crSchema({ a: { type: 'integer', nullable: true, 'x-kubernetes-validations': rules('self > 0') } }), { a: null }, undefined, []],
  // Transition rules
  ['a transition rule does not run on create', crSchema({ a: int }, rules('self.a == oldSelf.a')), { a: 1 }, undefined, []],
  ['a transition rule runs on update', crSchema({ a: int }, rules({ rule: 'self.a == oldSelf.a', message: 'a is immutable' })), { a: 1 }, { a: 2 },
    ['spec: Invalid value: "object": a is immutable']],
  ['a transition rule on an optional field does not run when the field is added',
    crSchema({ a: { type: 'integer', 'x-kubernetes-validations': rules('self == oldSelf') } }), { a: 1 }, {}, []],
  ['map-list items correlate by key', crSchema({ items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
    items: { type: 'object', properties: { name: str, v: int }, required: ['name'], 'x-kubernetes-validations': rules({ rule: 'self.v >= oldSelf.v', message: 'v may not decrease' }) } } }),
    { items: [{ name: 'b', v: 1 }, { name: 'a', v: 5 }, { name: 'c', v: 0 }] }, { items: [{ name: 'a', v: 3 }, { name: 'b', v: 2 }] },
    ['spec.items[0]: Invalid value: "object": v may not decrease']],
  ['additionalProperties correlate by key', crSchema({ m: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': rules('self >= oldSelf') } } }),
    { m: { a: 1, b: 9 } }, { m: { a: 2 } }, ['spec.m[a]: Invalid value: "integer": failed rule: self >= oldSelf']],
  ['set lists compare regardless of order', crSchema({ tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str, 'x-kubernetes-validations': rules('self == oldSelf') } }),
    { tags: ['b', 'a'] }, { tags: ['a', 'b'] }, []],
  ['atomic lists compare in order', crSchema({ tags: { type: 'array', items: str, 'x-kubernetes-validations': rules('self == oldSelf') } }),
    { tags: ['b', 'a'] }, { tags: ['a', 'b'] }, ['spec.tags: Invalid value: "array": failed rule: self == oldSelf']],
  ['map lists compare by key, nested sets too', crSchema({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
    items: { type: 'object', required: ['name'], properties: { name: str, hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: str } } } } },
  rules({ rule: 'self.ports == oldSelf.ports', message: 'ports are immutable' })),
  { ports: [{ name: 'b', hosts: ['y', 'x'] }, { name: 'a' }] }, { ports: [{ name: 'a' }, { name: 'b', hosts: ['x', 'y'] }] }, []],
  ['map lists with a changed item differ', crSchema({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
    items: { type: 'object', required: ['name'], properties: { name: str, port: int } } } }, rules({ rule: 'self.ports == oldSelf.ports', message: 'ports are immutable' })),
  { ports: [{ name: 'b', port: 2 }, { name: 'a', port: 1 }] }, { ports: [{ name: 'a', port: 1 }, { name: 'b', port: 3 }] }, ['spec: Invalid value: "object": ports are immutable']],
  ['oldSelf sees the old value whole', crSchema({ tags: { type: 'array', items: str, 'x-kubernetes-validations': rules({ rule: 'oldSelf.all(t, t in self)', message: 'tags are append-only' }) } }),
    { tags: ['a'] }, { tags: ['a', 'b'] }, ['spec.tags: Invalid value: "array": tags are append-only']],
];

describe('celrules validateRules', () => {
  for (const [name, schema, spec, old, want] of cases) {
    it(name, () => {
      expect(run(schema, spec, old)).to.deep.equal(want);
    });
  }

  it('compiles a schema once', () => {
    const s = crSchema({ a: int }, rules('self.a > 0'));
    expect(compileRules(s)).to.equal(compileRules(s));
  });

  it('a rule on a schema without rules below compiles to nothing', () => {
    expect(compileRules(crSchema({ a: int })).root).to.equal(undefined);
    expect(run(crSchema({ a: int }), { a: 1 })).to.deep.equal([]);
  });

  it('stops at the per-call cost limit', () => {
    const s = crSchema({ l: { type: 'array', items: int, 'x-kubernetes-validations': rules('self.all(x, self.all(y, true))') } }, rules('self.l.size() > 5000'));
    const l = Array.from({ length: 1100 }, (_, i) => i);
    expect(run(s, { l })).to.deep.equal([
      'spec: Invalid value: "object": failed rule: self.l.size() > 5000',
      'spec.l: Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, true))',
    ]);
  });

  it('stops when the request budget is spent', () => {
    const s = crSchema({ ls: { type: 'array', items: { type: 'array', items: int, 'x-kubernetes-validations': rules('self.all(x, self.all(y, true))') } } });
    const ls = Array.from({ length: 15 }, () => Array.from({ length: 600 }, (_, i) => i));
    const errs = run(s, { ls });
    expect(errs).to.have.length(1);
    expect(errs[0]).to.match(/^spec\.ls\[1[0-4]\]: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run$/);
  });
});
