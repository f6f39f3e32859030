import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { JSONSchemaProps } from '../types.js';
import { validateCustomResource } from './index.js';

/** A root schema whose spec has the given properties (and optional extra keywords). */
function specSchema(properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties, ...extra } } };
}

const messages = (obj: unknown, schema: JSONSchemaProps) => validateCustomResource(obj, schema).map((e) => fieldErrorMessage(e));

const cases: Array<[string, JSONSchemaProps, Record<string, unknown>, string[]]> = [
  ['a valid object', specSchema({ replicas: { type: 'integer' } }), { replicas: 3 }, []],
  ['a string where an integer belongs', specSchema({ replicas: { type: 'integer' } }), { replicas: 'three' },
    ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']],
  ['a value outside the enum', specSchema({ size: { type: 'string', enum: ['small', 'medium'] } }), { size: 'huge' },
    ['spec.size: Unsupported value: "huge": supported values: "small", "medium"']],
  ['a non-string enum', specSchema({ level: { type: 'integer', enum: [1, 2] } }), { level: 3 },
    ['spec.level: Unsupported value: 3: supported values: "1", "2"']],
  ['a missing required field', specSchema({ name: { type: 'string' } }, { required: ['name'] }), {},
    ['spec.name: Required value']],
  ['null in a non-nullable field', specSchema({ name: { type: 'string' } }), { name: null },
    ['spec.name: Invalid value: "null": spec.name in body must be of type string: "null"']],
  ['null in a nullable field', specSchema({ name: { type: 'string', nullable: true } }), { name: null }, []],
  ['null in a nullable field with an enum (null is not in it)', specSchema({ size: { type: 'string', nullable: true, enum: ['small'] } }), { size: null },
    ['spec.size: Unsupported value: "null": supported values: "small"']],
  ['a pattern mismatch', specSchema({ name: { type: 'string', pattern: '^[a-z]+$' } }), { name: 'ABC' },
    ['spec.name: Invalid value: "ABC": spec.name in body should match \'^[a-z]+$\'']],
  ['a string over maxLength (runes counted)', specSchema({ name: { type: 'string', maxLength: 3 } }), { name: 'äöüß' },
    ['spec.name: Too long: may not be longer than 3']],
  ['a string under minLength', specSchema({ name: { type: 'string', minLength: 2 } }), { name: 'a' },
    ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long']],
  ['maxLength is checked before pattern', specSchema({ name: { type: 'string', maxLength: 1, pattern: '^x$' } }), { name: 'ab' },
    ['spec.name: Too long: may not be longer than 1']],
  ['an integer over maximum', specSchema({ replicas: { type: 'integer', maximum: 10 } }), { replicas: 11 },
    ['spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10']],
  ['an integer at an exclusive minimum', specSchema({ replicas: { type: 'integer', minimum: 0, exclusiveMinimum: true } }), { replicas: 0 },
    ['spec.replicas: Invalid value: 0: spec.replicas in body should be greater than 0']],
  ['an integer against a fractional bound (truncated as int64)', specSchema({ n: { type: 'integer', maximum: 5.5 } }), { n: 6 },
    ['spec.n: Invalid value: 6: spec.n in body should be less than or equal to 5']],
  ['a float over maximum', specSchema({ ratio: { type: 'number', maximum: 2 } }), { ratio: 2.5 },
    ['spec.ratio: Invalid value: 2.5: spec.ratio in body should be less than or equal to 2']],
  ['a float below an exclusive minimum printed as Go prints floats', specSchema({ f: { type: 'number', minimum: 0.00001, exclusiveMinimum: true } }), { f: 0.000001 },
    ['spec.f: Invalid value: 1e-06: spec.f in body should be greater than 1e-05']],
  ['an integer where a number belongs', specSchema({ ratio: { type: 'number' } }), { ratio: 2 }, []],
  ['a float where an integer belongs', specSchema({ n: { type: 'integer' } }), { n: 1.5 },
    ['spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"']],
  ['multipleOf, minimum and maximum all failing, in that order', specSchema({ n: { type: 'integer', multipleOf: 5, minimum: 10, maximum: 1 } }), { n: 7 }, [
    'spec.n: Invalid value: 7: spec.n in body should be a multiple of 5',
    'spec.n: Invalid value: 7: spec.n in body should be greater than or equal to 10',
    'spec.n: Invalid value: 7: spec.n in body should be less than or equal to 1',
  ]],
  ['a float multipleOf', specSchema({ n: { type: 'number', multipleOf: 0.1 } }), { n: 0.35 },
    ['spec.n: Invalid value: 0.35: spec.n in body should be a multiple of 0.1']],
  ['a float that is a multiple within rounding', specSchema({ n: { type: 'number', multipleOf: 0.1 } }), { n: 0.3 }, []],
  ['too few items', specSchema({ items: { type: 'array', minItems: 1, items: { type: 'string' } } }), { items: [] },
    ['spec.items: Invalid value: 0: spec.items in body should have at least 1 items']],
  ['duplicate items under uniqueItems', specSchema({ items: { type: 'array', uniqueItems: true, items: { type: 'object' } } }), { items: [{ a: 1 }, { a: 1 }] },
    ['spec.items: Invalid value: "": spec.items in body shouldn\'t contain duplicates']],
  ['errors inside nested arrays', specSchema({
    matrix: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } },
  }), { matrix: [[{ name: 'a' }], [{ name: 'b' }, { name: 5 }]] },
  ['spec.matrix[1][1].name: Invalid value: "integer": spec.matrix[1][1].name in body must be of type string: "integer"']],
  ['a map value of the wrong type (additionalProperties schema)', specSchema({ labels: { type: 'object', additionalProperties: { type: 'string' } } }),
    { labels: { a: 'x', b: 2 } },
    ['spec.labels.b: Invalid value: "integer": spec.labels.b in body must be of type string: "integer"']],
  ['a map of objects with a missing required key', specSchema({
    ports: { type: 'object', additionalProperties: { type: 'object', required: ['port'], properties: { port: { type: 'integer' } } } },
  }), { ports: { http: {} } }, ['spec.ports.http.port: Required value']],
  ['an undeclared property under additionalProperties: false', specSchema({ a: { type: 'string' } }, { additionalProperties: false }), { a: 'x', extra: 1 },
    ['spec: Invalid value: "extra": spec.extra in body is a forbidden property']],
  ['too few properties', specSchema({ labels: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } } }), { labels: {} },
    ['spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties']],
  ['int-or-string given an integer', specSchema({ port: { 'x-kubernetes-int-or-string': true } }), { port: 80 }, []],
  ['int-or-string given a string', specSchema({ port: { 'x-kubernetes-int-or-string': true } }), { port: 'http' }, []],
  ['int-or-string given a boolean', specSchema({ port: { 'x-kubernetes-int-or-string': true } }), { port: true },
    ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']],
  ['int-or-string with the anyOf form given a boolean: the first branch is reported', specSchema({
    port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
  }), { port: true }, [
    'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    '<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)',
    'spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"',
  ]],
  ['anyOf reports the branch that matched most', specSchema({
    v: { type: 'object', anyOf: [{ required: ['a'] }, { properties: { b: { maxLength: 1 } }, required: ['b'] }], properties: { a: { type: 'string' }, b: { type: 'string' } } },
  }), { v: { b: 'long' } }, [
    '<nil>: Invalid value: "": "spec.v" must validate at least one schema (anyOf)',
    'spec.v.b: Too long: may not be longer than 1',
  ]],
  ['oneOf with no branch valid', specSchema({}, { oneOf: [{ required: ['a'] }, { required: ['b'] }] }), {}, [
    '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid',
    'spec.a: Required value',
  ]],
  ['oneOf with two branches valid', specSchema({ a: { type: 'string' }, b: { type: 'string' } }, { oneOf: [{ required: ['a'] }, { required: ['b'] }] }),
    { a: 'x', b: 'y' },
    ['<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives']],
  ['allOf with one branch failing', specSchema({ n: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 5 }] } }), { n: 7 }, [
    'spec.n: Invalid value: 7: spec.n in body should be less than or equal to 5',
    '<nil>: Invalid value: "": "spec.n" must validate all the schemas (allOf)',
  ]],
  ['allOf with no branch passing', specSchema({ n: { type: 'integer', allOf: [{ minimum: 10 }, { maximum: 5 }] } }), { n: 7 }, [
    'spec.n: Invalid value: 7: spec.n in body should be greater than or equal to 10',
    'spec.n: Invalid value: 7: spec.n in body should be less than or equal to 5',
    '<nil>: Invalid value: "": "spec.n" must validate all the schemas (allOf). None validated',
  ]],
  ['a value the not schema matches', specSchema({ s: { type: 'string', not: { enum: ['forbidden'] } } }), { s: 'forbidden' },
    ['<nil>: Invalid value: "": "spec.s" must not validate the schema (not)']],
  ['a date-time format violation', specSchema({ t: { type: 'string', format: 'date-time' } }), { t: 'yesterday' },
    ['spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"']],
  ['a date that does not exist', specSchema({ d: { type: 'string', format: 'date' } }), { d: '2023-02-29' },
    ['spec.d: Invalid value: "2023-02-29": spec.d in body must be of type date: "2023-02-29"']],
  ['an unknown format is stripped and not checked', specSchema({ d: { type: 'string', format: 'my-format' } }), { d: 'anything' }, []],
  ['int32 ranges are not checked for custom resources', specSchema({ n: { type: 'integer', format: 'int32' } }), { n: 2 ** 40 }, []],
  ['a format on a string given a boolean', specSchema({ d: { type: 'string', format: 'date' } }), { d: true },
    ['spec.d: Invalid value: "": spec.d in body must be of type date: ""']],
  ['a preserve-unknown subtree: unknown fields pass, declared ones are checked', specSchema({
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { n: { type: 'integer' } } },
  }), { free: { anything: { goes: [1, 'x'] }, n: 'x' } },
  ['spec.free.n: Invalid value: "string": spec.free.n in body must be of type integer: "string"']],
  ['an embedded resource is validated by its schema like any object', specSchema({
    tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } } },
  }), { tmpl: { apiVersion: 'v1', kind: 'Pod', spec: { n: 'x' } } },
  ['spec.tmpl.spec.n: Invalid value: "string": spec.tmpl.spec.n in body must be of type integer: "string"']],
];

describe('apiextensions/schema validateCustomResource', () => {
  for (const [name, schema, spec, want] of cases) {
    it(name, () => {
      expect(messages({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec }, schema)).to.deep.equal(want);
    });
  }

  it('reports a missing required root field with its path', () => {
    const schema = { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } };
    expect(messages({ apiVersion: 'v1', kind: 'X' }, schema)).to.deep.equal(['spec: Required value']);
  });

  it('reports root-level failures at upstream\'s nil path', () => {
    const schema = { type: 'object', maxProperties: 1 };
    const errs = validateCustomResource({ a: 1, b: 2 }, schema);
    expect(errs).to.deep.equal([{ type: 'FieldValueTooMany', field: '<nil>', value: 2, detail: 'must have at most 1 items' }]);
  });

  it('reports too many items as TooMany with the count and the limit', () => {
    const schema = specSchema({ items: { type: 'array', maxItems: 2, items: { type: 'integer' } } });
    const errs = validateCustomResource({ spec: { items: [1, 2, 3] } }, schema);
    expect(errs).to.deep.equal([{ type: 'FieldValueTooMany', field: 'spec.items', value: 3, detail: 'must have at most 2 items' }]);
  });

  it('prefixes paths with a given field path', () => {
    const errs = validateCustomResource({ spec: { replicas: 'x' } }, specSchema({ replicas: { type: 'integer' } }), 'status');
    expect(errs.map((e) => e.field)).to.deep.equal(['status.spec.replicas']);
  });
});
