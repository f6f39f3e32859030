import { expect } from 'chai';
import { strictDecodingFailure, unknownFieldMessage, unknownFields } from './unknown-fields.js';

describe('unknownFields', () => {
  it('returns dotted paths with list indices, in document order', () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', foo: 1 }, rules: [{ verbs: ['get'] }, { verbs: ['list'], bar: true }], baz: {} };
    expect(unknownFields('rbac.authorization.k8s.io', 'v1', 'Role', role)).to.deep.equal(['metadata.foo', 'rules[1].bar', 'baz']);
  });

  it('descends into map values of struct type and through references', () => {
    const pod = {
      spec: {
        containers: [{ name: 'c', resources: { limits: { cpu: '1' } }, env: [{ name: 'a', valueFrom: { fieldRef: { fieldPath: 'x', nope: 1 } } }] }],
        nodeSelector: { anything: 'goes' },
      },
    };
    expect(unknownFields('', 'v1', 'Pod', pod)).to.deep.equal(['spec.containers[0].env[0].valueFrom.fieldRef.nope']);
  });

  it('treats free-form fields and mismatched types as holding no unknown fields', () => {
    expect(unknownFields('', 'v1', 'ConfigMap', { metadata: { managedFields: [{ fieldsV1: { 'f:data': {} } }] }, data: 'not-a-map' })).to.deep.equal([]);
    expect(unknownFields('apps', 'v1', 'ControllerRevision', { data: { any: { thing: 1 } } })).to.deep.equal([]);
  });

  it('walks only a changed region (a merge patch\'s keys), in the whole object\'s order', () => {
    const cm = { metadata: { name: 'a', stale: 1, labels: { x: 'y' } }, data: { k: 'v' }, extra: 1, added: { b: 1 } };
    expect(unknownFields('', 'v1', 'ConfigMap', cm, { data: { k: 'v' } })).to.deep.equal([]);
    expect(unknownFields('', 'v1', 'ConfigMap', cm, { added: { b: 1 }, metadata: { labels: { x: 'y' } } })).to.deep.equal(['added']);
    expect(unknownFields('', 'v1', 'ConfigMap', cm, { added: 1, metadata: { stale: 1 }, extra: 1 }))
      .to.deep.equal(['metadata.stale', 'extra', 'added']);
    expect(unknownFields('', 'v1', 'ConfigMap', cm, { metadata: 'replaced' })).to.deep.equal(['metadata.stale']);
  });

  it('is empty for kinds without a schema', () => {
    expect(unknownFields('example.com', 'v1', 'Widget', { foo: 1 })).to.deep.equal([]);
  });

  it('formats strict decoding errors like upstream', () => {
    expect(unknownFieldMessage('spec.foo')).to.equal('unknown field "spec.foo"');
    const err = strictDecodingFailure('v1', 'ConfigMap', [unknownFieldMessage('foo'), unknownFieldMessage('bar')]);
    expect(err.code).to.equal(400);
    expect(err.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "foo", unknown field "bar"');
  });
});
