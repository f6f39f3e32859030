import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { nameIsDNSSubdomain } from '../../apis/validation/names.js';
import { BaseStrategy, type BaseStrategyOptions } from './base-strategy.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));

class Widget extends BaseStrategy {
  constructor(opts: Partial<BaseStrategyOptions> = {}) {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, ...opts });
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return obj.spec === 'bad' ? [{ type: 'FieldValueInvalid', field: 'spec', value: 'bad', detail: 'no' }] : [];
  }
}

const stored = (over: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'x/v1', kind: 'Widget',
  metadata: { name: 'w', namespace: 'ns', uid: 'u', resourceVersion: '7', creationTimestamp: '2024-01-01T00:00:00Z', generation: 3, labels: { a: '1' } },
  spec: { size: 1 },
  status: { ready: true },
  ...over,
});

describe('BaseStrategy', () => {
  it('defaults: create on update off, unconditional update on', () => {
    const s = new Widget();
    expect(s.allowCreateOnUpdate).to.equal(false);
    expect(s.allowUnconditionalUpdate).to.equal(true);
  });

  it('validates metadata for the declared scope, then the kind', () => {
    const s = new Widget();
    const obj: KubeObject = { metadata: { name: 'Bad_Name' }, spec: 'bad' };
    const errs = render(s.validate(obj, {}));
    expect(errs[0]).to.match(/^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(errs.slice(1)).to.deep.equal(['metadata.namespace: Required value', 'spec: Invalid value: "bad": no']);
  });

  it('falls back to the generic path-segment check only when the kind is satisfied', () => {
    const s = new Widget({ nameValidator: () => [] });
    expect(render(s.validate({ metadata: { name: 'a/b', namespace: 'ns' } }, {})))
      .to.deep.equal(['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
  });

  it('applies the core finalizer rule unless told not to', () => {
    const obj: KubeObject = { metadata: { name: 'a', namespace: 'ns', finalizers: ['mine'] } };
    expect(render(new Widget().validate(obj, {}))).to.deep.equal([
      'metadata.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified']);
    expect(new Widget({ standardFinalizers: false }).validate(obj, {})).to.deep.equal([]);
  });

  it('reports metadata immutables once on update', () => {
    const s = new Widget();
    const old = stored();
    const obj = stored({ metadata: { ...old.metadata, namespace: 'other' } });
    expect(render(s.validateUpdate(obj, old, {}))).to.deep.equal(['metadata.namespace: Invalid value: "other": field is immutable']);
  });

  it('reports each bad label, annotation, owner reference and managed field once on update, in the create check\'s order', () => {
    const s = new Widget();
    const old = stored();
    const obj = stored({ metadata: { ...old.metadata, namespace: 'other',
      labels: { 'a/b/c': 'ok', x: '-bad', y: '-bad' }, annotations: { '-k': 'v' },
      ownerReferences: [{ apiVersion: '', kind: 'K', name: 'n', uid: 'u' }],
      managedFields: [{ manager: 'm', operation: 'Delete' as never }] } });
    expect(render(s.validateUpdate(obj, old, {}))).to.deep.equal([
      "metadata.labels: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      "metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      "metadata.annotations: Invalid value: \"-k\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
      "metadata.managedFields[0].operation: Invalid value: \"Delete\": must be `Apply` or `Update`",
      "metadata.namespace: Invalid value: \"other\": field is immutable",
    ]);
  });

  it('keeps server-set metadata on update', () => {
    const s = new Widget();
    const old = stored({ metadata: { ...stored().metadata, deletionTimestamp: '2024-02-01T00:00:00Z', deletionGracePeriodSeconds: 0 } });
    const obj: KubeObject = { metadata: { name: 'w', namespace: 'ns', resourceVersion: '7', generation: 99 }, spec: { size: 2 } };
    s.prepareForUpdate(obj, old, {});
    expect(obj.metadata).to.include({ uid: 'u', creationTimestamp: '2024-01-01T00:00:00Z', generation: 3,
      deletionTimestamp: '2024-02-01T00:00:00Z', deletionGracePeriodSeconds: 0 });
  });

  describe('with a status subresource', () => {
    const s = new Widget({ hasStatus: true });

    it('drops client status on create', () => {
      const obj = stored();
      s.prepareForCreate(obj, {});
      expect(obj).to.not.have.property('status');
    });

    it('main endpoint keeps the stored status', () => {
      const obj = stored({ status: { ready: false } });
      s.prepareForUpdate(obj, stored(), {});
      expect(obj.status).to.deep.equal({ ready: true });
      const noStatus = stored();
      s.prepareForUpdate(noStatus, stored({ status: undefined }), {});
      expect(noStatus).to.not.have.property('status');
    });

    it('status endpoint keeps spec and metadata except labels and annotations', () => {
      const obj = stored({
        spec: { size: 9 }, status: { ready: false }, extra: 'x',
        metadata: { name: 'w', namespace: 'ns', resourceVersion: '7', labels: { b: '2' }, annotations: { n: 'v' }, finalizers: ['x/y'] },
      });
      s.prepareForUpdate(obj, stored(), { subresource: 'status' });
      expect(obj.spec).to.deep.equal({ size: 1 });
      expect(obj).to.not.have.property('extra');
      expect(obj.status).to.deep.equal({ ready: false });
      expect(obj.metadata.labels).to.deep.equal({ b: '2' });
      expect(obj.metadata.annotations).to.deep.equal({ n: 'v' });
      expect(obj.metadata).to.not.have.property('finalizers');
      expect(obj.metadata.uid).to.equal('u');
    });

    it('status endpoint: the spec as the stored one, keys in its order, never an object shared with it', () => {
      const old = stored({ spec: { size: 1, parts: [{ a: 1, b: 2 }] }, metadata: { ...stored().metadata, managedFields: [{ manager: 'm' }] } });
      const equal = stored({ spec: { size: 1, parts: [{ a: 1, b: 2 }] } });
      s.prepareForUpdate(equal, old, { subresource: 'status' });
      const reordered = stored({ spec: { parts: [{ b: 2, a: 1 }], size: 1 } });
      s.prepareForUpdate(reordered, old, { subresource: 'status' });
      const spread = { ...old, status: { ready: false } } as KubeObject;
      s.prepareForUpdate(spread, old, { subresource: 'status' });
      for (const obj of [equal, reordered, spread]) {
        expect(JSON.stringify(obj.spec)).to.equal('{"size":1,"parts":[{"a":1,"b":2}]}');
        expect(obj.spec).to.not.equal(old.spec);
        expect((obj.spec as { parts: unknown[] }).parts[0]).to.not.equal((old.spec as { parts: unknown[] }).parts[0]);
        expect(Object.keys(obj.metadata)).to.deep.equal(Object.keys(old.metadata).filter((k) => obj === spread || k !== 'managedFields'));
      }
      expect(spread.metadata).to.not.equal(old.metadata);
      expect(spread.status).to.deep.equal({ ready: false });
    });

    it('status endpoint may let all metadata through', () => {
      const open = new Widget({ hasStatus: true, statusKeepsMetadata: false });
      const obj = stored({ metadata: { ...stored().metadata, finalizers: ['x/y'] }, spec: { size: 9 } });
      open.prepareForUpdate(obj, stored(), { subresource: 'status' });
      expect(obj.metadata.finalizers).to.deep.equal(['x/y']);
      expect(obj.spec).to.deep.equal({ size: 1 });
    });
  });

  describe('generation', () => {
    const s = new Widget({ hasStatus: true, tracksGeneration: true });

    it('starts at 1', () => {
      const obj = stored();
      s.prepareForCreate(obj, {});
      expect(obj.metadata.generation).to.equal(1);
    });

    it('grows when the spec changes, not for metadata or status', () => {
      const specChange = stored({ spec: { size: 2 } });
      s.prepareForUpdate(specChange, stored(), {});
      expect(specChange.metadata.generation).to.equal(4);

      const labelChange = stored({ metadata: { ...stored().metadata, labels: { z: '9' } } });
      s.prepareForUpdate(labelChange, stored(), {});
      expect(labelChange.metadata.generation).to.equal(3);

      const statusWrite = stored({ status: { ready: false } });
      s.prepareForUpdate(statusWrite, stored(), { subresource: 'status' });
      expect(statusWrite.metadata.generation).to.equal(3);
    });
  });
});
