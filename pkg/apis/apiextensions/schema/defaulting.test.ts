import { expect } from 'chai';
import type { JSONSchemaProps } from '../types.js';
import { defaultCustomResource } from './index.js';

const root = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps =>
  ({ type: 'object', properties: { spec: { type: 'object', properties } } });

const cases: Array<[string, JSONSchemaProps, Record<string, unknown>, Record<string, unknown>]> = [
  ['a missing field gets its default; a present one is kept',
    root({ a: { type: 'string', default: 'x' }, b: { type: 'integer', default: 1 } }),
    { b: 5 }, { a: 'x', b: 5 }],
  ['null in a non-nullable field with a default becomes the default',
    root({ a: { type: 'string', default: 'x' } }), { a: null }, { a: 'x' }],
  ['null in a non-nullable field without a default is dropped',
    root({ a: { type: 'string' } }), { a: null }, {}],
  ['null in a nullable field stays, default or not',
    root({ a: { type: 'string', nullable: true, default: 'x' }, b: { type: 'string', nullable: true } }),
    { a: null, b: null }, { a: null, b: null }],
  ['a missing nullable field with a default is defaulted',
    root({ a: { type: 'string', nullable: true, default: 'x' } }), {}, { a: 'x' }],
  ['a defaulted object is itself defaulted inside',
    root({ sub: { type: 'object', default: {}, properties: { inner: { type: 'string', default: 'd' } } } }),
    {}, { sub: { inner: 'd' } }],
  ['array items get their properties defaulted; null items get the item default',
    root({ list: { type: 'array', items: { type: 'object', default: { port: 1 }, properties: { port: { type: 'integer', default: 80 } } } } }),
    { list: [{}, null, { port: 8080 }] }, { list: [{ port: 80 }, { port: 1 }, { port: 8080 }] }],
  ['null items without an item default stay (only map fields are dropped)',
    root({ list: { type: 'array', items: { type: 'string' } } }), { list: ['a', null] }, { list: ['a', null] }],
  ['map values: null becomes the additionalProperties default, objects are defaulted inside',
    root({ m: { type: 'object', additionalProperties: { type: 'object', default: { x: 'from-default' }, properties: { y: { type: 'string', default: 'y' } } } } }),
    { m: { a: null, b: {} } }, { m: { a: { x: 'from-default', y: 'y' }, b: { y: 'y' } } }],
  ['int-or-string defaults',
    root({ port: { 'x-kubernetes-int-or-string': true, default: 'http' } }), {}, { port: 'http' }],
  ['declared fields under preserve-unknown are defaulted, unknown ones untouched',
    root({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { n: { type: 'integer', default: 3 } } } }),
    { free: { other: null } }, { free: { other: null, n: 3 } }],
  ['fields of an embedded resource are defaulted',
    root({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', default: {}, properties: { r: { type: 'integer', default: 1 } } } } } }),
    { tmpl: { apiVersion: 'v1', kind: 'Pod' } }, { tmpl: { apiVersion: 'v1', kind: 'Pod', spec: { r: 1 } } }],
];

describe('apiextensions/schema defaultCustomResource', () => {
  for (const [name, schema, spec, want] of cases) {
    it(name, () => {
      const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
      defaultCustomResource(obj, schema);
      expect(obj.spec).to.deep.equal(want);
    });
  }

  it('defaults the spec itself when it is missing', () => {
    const schema = { type: 'object', properties: { spec: { type: 'object', default: { a: 1 } } } };
    const obj: Record<string, unknown> = { metadata: {} };
    defaultCustomResource(obj, schema);
    expect(obj.spec).to.deep.equal({ a: 1 });
  });

  it('copies defaults, so objects do not share them with the schema or each other', () => {
    const schema = root({ tags: { type: 'array', default: ['a'], items: { type: 'string' } } });
    const one = { spec: {} as Record<string, string[]> };
    const two = { spec: {} as Record<string, string[]> };
    defaultCustomResource(one, schema);
    defaultCustomResource(two, schema);
    one.spec.tags.push('b');
    expect(two.spec.tags).to.deep.equal(['a']);
    expect(((schema.properties as any).spec.properties.tags.default)).to.deep.equal(['a']);
  });
});
