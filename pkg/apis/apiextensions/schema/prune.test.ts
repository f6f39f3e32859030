import { expect } from 'chai';
import type { JSONSchemaProps } from '../types.js';
import { pruneCustomResource } from './index.js';

const root = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });

const cases: Array<[string, JSONSchemaProps, Record<string, unknown>, Record<string, unknown>, string[]]> = [
  ['unknown fields at the root and in spec; apiVersion, kind and metadata stay',
    root({ type: 'object', properties: { a: { type: 'string' } } }),
    { apiVersion: 'v1', kind: 'X', metadata: { name: 'x', whatever: 1 }, extra: true, spec: { a: 'x', b: 1 } },
    { apiVersion: 'v1', kind: 'X', metadata: { name: 'x', whatever: 1 }, spec: { a: 'x' } },
    ['extra', 'spec.b']],
  ['fields inside array items, with indices, sorted as strings',
    root({ type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } }, z: { type: 'object' } } }),
    { spec: { items: [{ name: 'a', x: 1 }, { name: 'b' }, { y: 2 }], z: { q: 1 } } },
    { spec: { items: [{ name: 'a' }, { name: 'b' }, {}], z: {} } },
    ['spec.items[0].x', 'spec.items[2].y', 'spec.z.q']],
  ['nested arrays',
    root({ type: 'object', properties: { m: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } } } } } }),
    { spec: { m: [[{ a: 1, b: 2 }], [{ c: 3 }]] } },
    { spec: { m: [[{ a: 1 }], [{}]] } },
    ['spec.m[0][0].b', 'spec.m[1][0].c']],
  ['map values through additionalProperties',
    root({ type: 'object', properties: { ports: { type: 'object', additionalProperties: { type: 'object', properties: { port: { type: 'integer' } } } } } }),
    { spec: { ports: { http: { port: 80, name: 'x' } } } },
    { spec: { ports: { http: { port: 80 } } } },
    ['spec.ports.http.name']],
  ['a preserve-unknown subtree keeps unknown fields but prunes inside declared ones',
    root({ type: 'object', properties: { free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: {
      known: { type: 'object', properties: { a: { type: 'string' } } },
    } } } }),
    { spec: { free: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } } } },
    { spec: { free: { anything: { deep: 1 }, known: { a: 'x' } } } },
    ['spec.free.known.b']],
  ['preserve-unknown at the root keeps everything undeclared',
    { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
    { other: { x: 1 }, spec: { a: 'x', b: 1 } },
    { other: { x: 1 }, spec: { a: 'x' } },
    ['spec.b']],
  ['an embedded resource keeps apiVersion, kind and metadata, prunes the rest it does not declare',
    root({ type: 'object', properties: { tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } } } } }),
    { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', foo: 1 }, spec: { n: 1, m: 2 }, status: {} } } },
    { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', foo: 1 }, spec: { n: 1 } } } },
    ['spec.tmpl.spec.m', 'spec.tmpl.status']],
  ['an embedded resource with preserve-unknown keeps everything',
    root({ type: 'object', properties: { tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } }),
    { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', spec: { containers: [] } } } },
    { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', spec: { containers: [] } } } },
    []],
  ['apiVersion, kind and metadata below the root are ordinary fields',
    root({ type: 'object', properties: { a: { type: 'string' } } }),
    { spec: { a: 'x', kind: 'K', metadata: {} } },
    { spec: { a: 'x' } },
    ['spec.kind', 'spec.metadata']],
  ['an object under an untyped array item schema loses all its fields',
    root({ type: 'object', properties: { list: { type: 'array', items: { type: 'string' } } } }),
    { spec: { list: ['a', { x: 1 }] } },
    { spec: { list: ['a', {}] } },
    ['spec.list[1].x']],
];

describe('apiextensions/schema pruneCustomResource', () => {
  for (const [name, schema, obj, want, paths] of cases) {
    it(name, () => {
      expect(pruneCustomResource(obj, schema)).to.deep.equal(paths);
      expect(obj).to.deep.equal(want);
    });
  }
});
