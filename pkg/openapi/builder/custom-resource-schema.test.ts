import { expect } from 'chai';
import type { Strategy } from '../../registry/generic/strategy.js';
import { allVerbs } from '../../runtime/scheme.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { customResourceDefinitionName, customResourceDefinitions, kindSchema } from './custom-resource-schema.js';

const CONVENTIONS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';
const API_VERSION = {
  description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert '
    + `recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONVENTIONS}#resources`,
  type: 'string',
};
const KIND = {
  description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this '
    + `from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONVENTIONS}#types-kinds`,
  type: 'string',
};
const EMBEDDED_API_VERSION = {
  description: `apiVersion defines the versioned schema of this representation of an object. More info: ${CONVENTIONS}#resources`,
  type: 'string',
};
const EMBEDDED_KIND = {
  description: `kind is a string value representing the type of this object. In CamelCase. More info: ${CONVENTIONS}#types-kinds`,
  type: 'string',
};
// v3 wraps a described reference in allOf (OpenAPI 3.0 ignores a $ref's siblings).
const metadata = (prefix: string) => {
  const ref = `${prefix}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`;
  const description = `Standard object's metadata. More info: ${CONVENTIONS}#metadata`;
  return prefix.startsWith('#/components/') ? { allOf: [{ $ref: ref }], description } : { $ref: ref, description };
};

// A small CRD schema touching each rule: int-or-string, nullable, junctors, defaults,
// preserved unknown fields, embedded resources, and keys structural schemas drop.
const schema = {
  type: 'object',
  description: 'Gadget is a test kind.',
  properties: {
    spec: {
      type: 'object',
      description: 'Spec is the desired state.',
      required: ['size', 'note'],
      properties: {
        size: { type: 'integer', format: 'int32', default: 1, minimum: 0, description: 'Size of the gadget.' },
        port: { 'x-kubernetes-int-or-string': true, description: 'Port number or name.' },
        note: { type: 'string', nullable: true, example: 'hello' },
        mode: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }] },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};
const gvk = { group: 'cr.example.com', version: 'v1', kind: 'Gadget' };
const gvkExt = [{ group: 'cr.example.com', kind: 'Gadget', version: 'v1' }];

describe('custom resource definitions', () => {
  it('names definitions with the group reversed, as upstream does', () => {
    expect(customResourceDefinitionName('cr.example.com', 'v1', 'Gadget')).to.equal('com.example.cr.v1.Gadget');
  });

  it('publishes the v3 schema with type meta, metadata, the unfolded int-or-string and everything v3 can say', () => {
    const prefix = '#/components/schemas/';
    expect(kindSchema(schema, gvk, true)).to.deep.equal({
      type: 'object',
      description: 'Gadget is a test kind.',
      properties: {
        apiVersion: API_VERSION,
        kind: KIND,
        metadata: metadata(prefix),
        spec: {
          type: 'object',
          description: 'Spec is the desired state.',
          required: ['size', 'note'],
          properties: {
            size: { type: 'integer', format: 'int32', default: 1, minimum: 0, description: 'Size of the gadget.' },
            port: { 'x-kubernetes-int-or-string': true, description: 'Port number or name.', anyOf: [{ type: 'integer' }, { type: 'string' }] },
            note: { type: 'string', nullable: true },
            mode: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }] },
            tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
            extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
            template: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              required: ['kind', 'apiVersion'],
              properties: {
                spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                apiVersion: EMBEDDED_API_VERSION,
                kind: EMBEDDED_KIND,
                metadata: metadata(prefix),
              },
            },
          },
        },
        status: { type: 'object', properties: { ready: { type: 'boolean' } } },
      },
      'x-kubernetes-group-version-kind': gvkExt,
    });
  });

  it('strips for Swagger 2.0 what upstream strips: junctors, nullable types, children of preserved fields', () => {
    const v2 = kindSchema(schema, gvk, false) as { properties: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    expect(v2.properties.metadata).to.deep.equal(metadata('#/definitions/'));
    expect(v2.properties.apiVersion).to.deep.equal(API_VERSION);
    const spec = v2.properties.spec;
    expect(spec.required).to.deep.equal(['size']);
    expect(spec.properties).to.deep.equal({
      size: { type: 'integer', format: 'int32', default: 1, minimum: 0, description: 'Size of the gadget.' },
      port: { 'x-kubernetes-int-or-string': true, description: 'Port number or name.' },
      note: {},
      mode: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      extra: { 'x-kubernetes-preserve-unknown-fields': true },
      template: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        required: ['kind', 'apiVersion'],
        properties: {
          spec: { 'x-kubernetes-preserve-unknown-fields': true },
          apiVersion: EMBEDDED_API_VERSION,
          kind: EMBEDDED_KIND,
          metadata: metadata('#/definitions/'),
        },
      },
    });
    expect(v2['x-kubernetes-group-version-kind' as 'properties']).to.deep.equal(gvkExt);
  });

  it('publishes a bare object without a schema, and in v2 for a root that keeps unknown fields', () => {
    expect(kindSchema(undefined, gvk, true)).to.deep.equal({ type: 'object', 'x-kubernetes-group-version-kind': gvkExt });
    const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object' } } };
    expect(kindSchema(open, gvk, false)).to.deep.equal({ type: 'object', 'x-kubernetes-group-version-kind': gvkExt });
    expect(kindSchema(open, gvk, true)).to.have.nested.property('properties.spec.type', 'object');
  });

  it('builds the list kind with ListMeta and items of the kind, in both versions', () => {
    const def = {
      group: 'cr.example.com', version: 'v1', kind: 'Gadget', listKind: 'GadgetList', plural: 'gadgets', singular: 'gadget',
      namespaced: true, verbs: allVerbs, strategy: {} as Strategy, customResource: { openAPISchema: schema },
    } satisfies ResourceDef;
    const [kind, list] = customResourceDefinitions(def);
    expect(kind.name).to.equal('com.example.cr.v1.Gadget');
    expect(kind.v3Refs).to.deep.equal(['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    expect(list.name).to.equal('com.example.cr.v1.GadgetList');
    expect(list.gvk).to.deep.equal({ group: 'cr.example.com', version: 'v1', kind: 'GadgetList' });
    expect(list.v3).to.deep.equal({
      description: 'GadgetList is a list of Gadget',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: API_VERSION,
        kind: KIND,
        items: { description: `List of gadgets. More info: ${CONVENTIONS}`, type: 'array', items: { $ref: '#/components/schemas/com.example.cr.v1.Gadget' } },
        metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }], description: `Standard list metadata. More info: ${CONVENTIONS}#types-kinds` },
      },
      'x-kubernetes-group-version-kind': [{ group: 'cr.example.com', kind: 'GadgetList', version: 'v1' }],
    });
    expect(list.v2).to.have.nested.property('properties.items.items.$ref', '#/definitions/com.example.cr.v1.Gadget');
    expect([...list.v2Refs].sort()).to.deep.equal(['com.example.cr.v1.Gadget', 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta']);
  });
});
