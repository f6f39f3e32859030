import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { persistentvolumes } from './index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = persistentvolumes.strategy;

describe('persistentvolumes', () => {
  it('declares upstream discovery data', () => {
    expect(persistentvolumes).to.include({ kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false });
    expect(persistentvolumes.shortNames).to.deep.equal(['pv']);
    expect(persistentvolumes.subresources!.map((r) => r.name)).to.deep.equal(['status']);
  });

  it('reproduces upstream\'s created fixtures-pv', () => {
    const { request, response } = objectFixture('v1', 'PersistentVolume', 'fixtures-pv');
    const want = withoutVolatile(response);
    // The StorageObjectInUseProtection admission plugin adds kubernetes.io/pv-protection.
    delete want.metadata.finalizers;
    expect(createThrough(persistentvolumes, request)).to.deep.equal(want);
  });

  it('validates access modes, capacity, reclaim policy and the volume source', () => {
    const errs = render(s.validate({ metadata: { name: 'p' }, spec: { accessModes: ['Sometimes'], capacity: { storage: '-1' }, persistentVolumeReclaimPolicy: 'Keep' } }, {}));
    expect(errs).to.deep.equal([
      'spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.capacity[storage]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
      'spec: Required value: must specify a volume type',
    ]);
    expect(render(s.validate({ metadata: { name: 'p' }, spec: { hostPath: { path: '/x' } } }, {}))).to.deep.equal([
      'spec.accessModes: Required value: must specify at least 1 access mode', 'spec.capacity: Required value']);
  });

  it('keeps the volume source and mode after creation', () => {
    const old: KubeObject = { metadata: { name: 'p', resourceVersion: '1' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/a' }, volumeMode: 'Filesystem' } };
    const upd = structuredClone(old);
    upd.spec = { ...(old.spec as object), hostPath: { path: '/b' }, volumeMode: 'Block' };
    expect(render(s.validateUpdate(upd, old, {}))).to.deep.equal([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
      'volumeMode: Invalid value: "Block": field is immutable',
    ]);
  });

  it('prints upstream\'s columns', () => {
    const fx = tableFixture('v1', 'PersistentVolume');
    expect(persistentvolumes.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    const { response } = objectFixture('v1', 'PersistentVolume', 'fixtures-pv');
    response.metadata.creationTimestamp = new Date(Date.now() - 1000).toISOString();
    expect(persistentvolumes.table!.cells(response)).to.deep.equal(fx.rows[0]);
    response.spec = { ...(response.spec as object), claimRef: { namespace: 'ns', name: 'c' }, storageClassName: 'fast' };
    expect(persistentvolumes.table!.cells(response).slice(5, 7)).to.deep.equal(['ns/c', 'fast']);
  });
});
