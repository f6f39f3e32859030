import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { JSONSchemaProps } from '../types.js';
import { coerceCustomResourceMetadata, validateEmbeddedAndListTypes } from './index.js';

const root = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps =>
  ({ type: 'object', properties: { spec: { type: 'object', properties } } });
const embedded: JSONSchemaProps = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
const set = (items: JSONSchemaProps): JSONSchemaProps => ({ type: 'array', 'x-kubernetes-list-type': 'set', items });
const map = (keys: string[]): JSONSchemaProps => ({
  type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys,
  items: { type: 'object', properties: Object.fromEntries(keys.map((k) => [k, { type: 'string' }])) },
});

const cases: Array<[string, JSONSchemaProps, Record<string, unknown>, string[]]> = [
  ['a complete embedded resource', root({ tmpl: embedded }), { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } }, []],
  ['an embedded resource without apiVersion and kind', root({ tmpl: embedded }), { tmpl: { metadata: {} } },
    ['spec.tmpl.apiVersion: Required value', 'spec.tmpl.kind: Required value']],
  ['empty and wrongly typed apiVersion and kind', root({ tmpl: embedded }), { tmpl: { apiVersion: '', kind: 3 } },
    ['spec.tmpl.apiVersion: Required value', 'spec.tmpl.kind: Invalid value: 3: must be a string']],
  ['an apiVersion with two slashes', root({ tmpl: embedded }), { tmpl: { apiVersion: 'a/b/c', kind: 'Pod' } },
    ['spec.tmpl.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']],
  ['a kind that is no DNS-1035 label even lowercased', root({ tmpl: embedded }), { tmpl: { apiVersion: 'v1', kind: 'My_Kind' } },
    ['spec.tmpl.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case '
      + 'alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character '
      + '(e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')']],
  ['metadata checked as ObjectMeta with path-segment names', root({ tmpl: embedded }),
    { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'x' } } } }, [
      'spec.tmpl.metadata.name: Invalid value: "a/b": may not contain \'/\'',
      'spec.tmpl.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', '
      + 'and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation '
      + 'is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    ]],
  ['metadata that does not decode as ObjectMeta', root({ tmpl: embedded }), { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: 'x' } } },
    ['spec.tmpl.metadata: Invalid value: map[string]interface {}{"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string']],
  ['embedded resources inside arrays and maps', root({
    list: { type: 'array', items: embedded }, byName: { type: 'object', additionalProperties: embedded },
  }), { list: [{ apiVersion: 'v1', kind: 'A' }, { apiVersion: 'v1' }], byName: { x: { kind: 'B' } } },
  ['spec.list[1].kind: Required value', 'spec.byName[x].apiVersion: Required value']],
  ['a set with repeated scalars: each value reported at its second occurrence', root({ tags: set({ type: 'string' }) }),
    { tags: ['a', 'b', 'a', 'a', 'b'] }, ['spec.tags[2]: Duplicate value: "a"', 'spec.tags[4]: Duplicate value: "b"']],
  ['a set of numbers and null', root({ n: set({ type: 'integer', nullable: true }) }), { n: [1, null, 1, null] },
    ['spec.n[2]: Duplicate value: 1', 'spec.n[3]: Duplicate value: "null"']],
  ['a set of objects compares whole values', root({ objs: set({ type: 'object', 'x-kubernetes-map-type': 'atomic', 'x-kubernetes-preserve-unknown-fields': true }) }),
    { objs: [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 2 }] }, ['spec.objs[1]: Duplicate value: map[string]interface {}{"a":1, "b":2}']],
  ['a map list with a repeated key', root({ ports: map(['name']) }), { ports: [{ name: 'http' }, { name: 'https' }, { name: 'http' }] },
    ['spec.ports[2]: Duplicate value: map[string]interface {}{"name":"http"}']],
  ['a map list with two items lacking the key', root({ ports: map(['name']) }), { ports: [{}, {}] },
    ['spec.ports[1]: Duplicate value: map[string]interface {}{}']],
  ['a map list with compound keys', root({ ports: map(['port', 'protocol']) }),
    { ports: [{ port: '80', protocol: 'TCP' }, { port: '80', protocol: 'UDP' }, { protocol: 'TCP', port: '80' }] },
    ['spec.ports[2]: Duplicate value: map[string]interface {}{"port":"80", "protocol":"TCP"}']],
  ['a map list with a non-object item', root({ ports: map(['name']) }), { ports: [{ name: 'a' }, 'b'] },
    ['spec.ports[1]: Invalid value: "b": must be an object for an array of list-type map']],
  ['sets nested in map lists and map values', root({
    ports: { ...map(['name']), items: { type: 'object', properties: { name: { type: 'string' }, tags: set({ type: 'string' }) } } },
    byName: { type: 'object', additionalProperties: set({ type: 'string' }) },
  }), { ports: [{ name: 'a', tags: ['x', 'x'] }], byName: { k: ['y', 'y'] } },
  ['spec.ports[0].tags[1]: Duplicate value: "x"', 'spec.byName[k][1]: Duplicate value: "y"']],
  ['atomic and untyped lists are not checked', root({ a: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } }, b: { type: 'array', items: { type: 'string' } } }),
    { a: ['x', 'x'], b: ['y', 'y'] }, []],
];

describe('apiextensions/schema validateEmbeddedAndListTypes', () => {
  for (const [name, schema, spec, want] of cases) {
    it(name, () => {
      const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
      expect(validateEmbeddedAndListTypes(obj, schema).map((e) => fieldErrorMessage(e))).to.deep.equal(want);
    });
  }

  it('does not treat the root as an embedded resource (its metadata is checked elsewhere)', () => {
    expect(validateEmbeddedAndListTypes({ spec: {} }, root({}))).to.deep.equal([]);
  });
});

describe('apiextensions/schema coerceCustomResourceMetadata', () => {
  const schema = root({ tmpl: embedded });

  it('rewrites root and embedded metadata as ObjectMeta does', () => {
    const obj = {
      apiVersion: 'example.com/v1', kind: 'Widget',
      metadata: { name: 'w', unknown: 1, labels: {}, generation: 0, creationTimestamp: '2024-01-02T03:04:05.678+01:00' },
      spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: null, finalizers: [] } } },
    };
    expect(coerceCustomResourceMetadata(obj, schema, { isResourceRoot: true, dropInvalidFields: false })).to.equal(undefined);
    expect(obj.metadata).to.deep.equal({ name: 'w', creationTimestamp: '2024-01-02T02:04:05Z' });
    expect(obj.spec.tmpl.metadata).to.deep.equal({ name: 'p' });
  });

  it('reports the first wrongly typed field unless asked to drop it', () => {
    const obj = { apiVersion: 'v1', kind: 'Widget', metadata: { name: 'w' }, spec: { tmpl: { apiVersion: 1, kind: 'Pod' } } };
    const err = coerceCustomResourceMetadata(obj, schema, { isResourceRoot: true, dropInvalidFields: false });
    expect(err && fieldErrorMessage(err)).to.equal('spec.tmpl.apiVersion: Invalid value: 1: must be a string');
    expect(coerceCustomResourceMetadata(obj, schema, { isResourceRoot: true, dropInvalidFields: true })).to.equal(undefined);
    expect(obj.spec.tmpl).to.deep.equal({ kind: 'Pod' });
  });

  it('drops only the metadata fields that do not decode', () => {
    const obj = { metadata: { name: 'w', labels: 'x', generation: 'y', annotations: { a: 'b' } } };
    expect(coerceCustomResourceMetadata(obj, root({}), { isResourceRoot: true, dropInvalidFields: true })).to.equal(undefined);
    expect(obj.metadata).to.deep.equal({ name: 'w', annotations: { a: 'b' } });
  });

  it('fails on undecodable metadata when not dropping', () => {
    const obj = { metadata: { name: 5 } };
    const err = coerceCustomResourceMetadata(obj, root({}), { isResourceRoot: true, dropInvalidFields: false });
    expect(err && fieldErrorMessage(err)).to.equal(
      'metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string');
  });
});
