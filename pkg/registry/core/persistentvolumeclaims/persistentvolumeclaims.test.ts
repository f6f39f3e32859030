import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { failure } from '../../../../test/harness/failure.js';
import { createThrough, invalidFixture, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { persistentvolumeclaims } from './index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = persistentvolumeclaims.strategy;

describe('persistentvolumeclaims', () => {
  it('declares upstream discovery data', () => {
    expect(persistentvolumeclaims).to.include({ kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });
    expect(persistentvolumeclaims.shortNames).to.deep.equal(['pvc']);
  });

  it('reproduces upstream\'s created pvc', () => {
    const { request, response } = objectFixture('v1', 'PersistentVolumeClaim', 'pvc');
    const want = withoutVolatile(response);
    // The StorageObjectInUseProtection admission plugin adds kubernetes.io/pvc-protection.
    delete want.metadata.finalizers;
    expect(createThrough(persistentvolumeclaims, request, 'fixtures')).to.deep.equal(want);
  });

  it('answers pvc-no-storage with upstream\'s status', () => {
    const fx = invalidFixture('pvc-no-storage');
    expect(failure(() => createThrough(persistentvolumeclaims, fx.request.body, 'fixtures')).toStatus()).to.deep.equal(fx.response);
  });

  it('fills dataSourceRef from dataSource', () => {
    const out = createThrough(persistentvolumeclaims, { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } },
      dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } } }, 'ns');
    expect((out.spec as Record<string, unknown>).dataSourceRef).to.deep.equal({ kind: 'PersistentVolumeClaim', name: 'src' });
  });

  it('only requests and a first volumeName change', () => {
    const old: KubeObject = { metadata: { name: 'c', namespace: 'ns', resourceVersion: '1' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' } };
    const bind = structuredClone(old);
    bind.spec = { ...(old.spec as object), volumeName: 'pv1', resources: { requests: { storage: '2Gi' } } };
    expect(s.validateUpdate(bind, old, {})).to.deep.equal([]);
    const upd = structuredClone(bind);
    upd.spec = { ...(bind.spec as object), volumeName: 'pv2' };
    expect(render(s.validateUpdate(upd, bind, {}))).to.deep.equal(['spec: Forbidden: spec is immutable after creation except resources.requests for bound claims']);
    expect(render(s.validate({ metadata: { name: 'c', namespace: 'ns' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0' } } } }, {})))
      .to.deep.equal(['spec.resources[storage]: Invalid value: "0": must be greater than zero']);
  });

  it('prints upstream\'s columns', () => {
    const fx = tableFixture('v1', 'PersistentVolumeClaim');
    expect(persistentvolumeclaims.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    const { response } = objectFixture('v1', 'PersistentVolumeClaim', 'pvc');
    response.metadata.creationTimestamp = new Date().toISOString();
    expect(persistentvolumeclaims.table!.cells(response)).to.deep.equal(fx.rows[0]);
    response.spec = { ...(response.spec as object), volumeName: 'pv1' };
    response.status = { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] };
    expect(persistentvolumeclaims.table!.cells(response).slice(1, 5)).to.deep.equal(['Bound', 'pv1', '1Gi', 'RWO,ROX']);
  });
});
