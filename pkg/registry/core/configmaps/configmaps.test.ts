import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { configmaps } from './index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = configmaps.strategy;
const cm = (over: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name: 'c', namespace: 'ns', resourceVersion: '4', uid: 'u' }, data: { a: '1' }, ...over,
});

describe('configmaps', () => {
  it('declares upstream discovery data', () => {
    expect(configmaps).to.include({ kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true });
    expect(configmaps.shortNames).to.deep.equal(['cm']);
    expect(configmaps.verbs).to.deep.equal(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  it('checks keys, duplicates across data and binaryData', () => {
    expect(render(s.validate(cm({ data: { 'a/b': 'x', k: 'v' }, binaryData: { k: 'AA==' } }), {}))).to.deep.equal([
      "data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      'data[k]: Invalid value: "k": duplicate of key present in binaryData',
    ]);
  });

  it('takes keys named like Object.prototype\'s members as any other (valid config keys)', () => {
    expect(s.validate(cm({ data: { constructor: 'x', toString: 'y', __proto__x: 'z' } }), {})).to.deep.equal([]);
    expect(render(s.validate(cm({ data: { constructor: 'x' }, binaryData: { constructor: 'AA==' } }), {}))).to.deep.equal([
      'data[constructor]: Invalid value: "constructor": duplicate of key present in binaryData',
    ]);
  });

  it('limits data and decoded binaryData to 1 MiB together', () => {
    const half = 'x'.repeat(512 * 1024);
    expect(s.validate(cm({ data: { a: half }, binaryData: { b: Buffer.alloc(512 * 1024).toString('base64') } }), {})).to.deep.equal([]);
    expect(render(s.validate(cm({ data: { a: half }, binaryData: { b: Buffer.alloc(512 * 1024 + 1).toString('base64') } }), {})))
      .to.deep.equal(['[]: Too long: must have at most 1048576 bytes']);
  });

  it('an immutable ConfigMap keeps its data and stays immutable', () => {
    const old = cm({ immutable: true });
    expect(s.validateUpdate(cm({ immutable: true }), old, {})).to.deep.equal([]);
    expect(render(s.validateUpdate(cm({ data: { a: '2' }, binaryData: { z: 'AA==' } }), old, {}))).to.deep.equal([
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
    // A mutable one may become immutable and change data in the same write.
    expect(s.validateUpdate(cm({ immutable: true, data: { a: '9' } }), cm(), {})).to.deep.equal([]);
  });

  it('prints NAME DATA AGE', () => {
    expect(configmaps.table!.columns.map((c) => c.name)).to.deep.equal(['Name', 'Data', 'Age']);
    expect(configmaps.table!.cells(cm({ binaryData: { b: 'AA==' } }))).to.deep.equal(['c', 2, '<unknown>']);
  });
});
