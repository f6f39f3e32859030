import { expect } from 'chai';
import type { PatchSchema } from '../patch-schema.js';
import { StatusError } from '../../../runtime/errors.js';
import { applyPatch, patchTypeForContentType } from './index.js';

const none = (): undefined => undefined;
const containers: PatchSchema = {
  type: 'array', patchStrategy: 'merge', patchMergeKey: 'name', field: none,
  items: () => ({ type: 'object', isStruct: true, field: none, items: none }),
};
const schema: PatchSchema = {
  type: 'object', isStruct: true, items: none,
  field: (n) => (n === 'spec' ? { type: 'object', isStruct: true, items: none, field: (m) => (m === 'containers' ? containers : undefined) } : undefined),
};

const original = (): Record<string, unknown> => ({ spec: { containers: [{ name: 'a', image: '1' }] } });

describe('patch: applyPatch', () => {
  it('maps content types to patch types', () => {
    expect(patchTypeForContentType('application/json-patch+json')).to.equal('json');
    expect(patchTypeForContentType('application/merge-patch+json; charset=utf-8')).to.equal('merge');
    expect(patchTypeForContentType('application/strategic-merge-patch+json')).to.equal('strategic');
    expect(patchTypeForContentType('application/apply-patch+yaml')).to.equal(undefined);
    expect(patchTypeForContentType('application/json')).to.equal(undefined);
    expect(patchTypeForContentType(undefined)).to.equal(undefined);
  });

  it('dispatches to each algorithm', () => {
    const added = { spec: { containers: [{ name: 'b', image: '2' }] } };
    expect(applyPatch('merge', original(), added)).to.deep.equal(added);
    expect(applyPatch('strategic', original(), added, schema)).to.deep.equal({
      spec: { containers: [{ name: 'b', image: '2' }, { name: 'a', image: '1' }] },
    });
    expect(applyPatch('strategic', original(), added)).to.deep.equal(added);
    expect(applyPatch('json', original(), '[{"op":"replace","path":"/spec/containers/0/image","value":"3"}]')).to.deep.equal({
      spec: { containers: [{ name: 'a', image: '3' }] },
    });
  });

  it('never modifies the original', () => {
    const obj = original();
    applyPatch('strategic', obj, { spec: { containers: [{ name: 'a', image: 'x' }] } }, schema);
    applyPatch('merge', obj, { spec: null });
    applyPatch('json', obj, [{ op: 'remove', path: '/spec' }]);
    expect(obj).to.deep.equal(original());
  });

  it('fails with StatusErrors', () => {
    for (const type of ['json', 'merge', 'strategic'] as const) {
      let err: unknown;
      try {
        applyPatch(type, original(), '{not json');
      } catch (e) {
        err = e;
      }
      expect(err, type).to.be.instanceOf(StatusError);
      expect((err as StatusError).code, type).to.equal(400);
    }
  });
});
