import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import { storageSegment } from '../../../runtime/scheme.js';
import { defaultTable } from '../../../runtime/table.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../../../../test/harness/surface-objects.js';
import { customresourcedefinitions } from './index.js';

const gv = 'apiextensions.k8s.io_v1';
const name = 'widgets.fixtures.example.com';
const s = customresourcedefinitions.strategy;

describe('customresourcedefinitions', () => {
  it("create reproduces upstream's fixture and keeps the group in the storage key", () => {
    const obj = structuredClone(fixtureObject(gv, 'CustomResourceDefinition', name, 'request'));
    s.applyDefaults(obj);
    s.prepareForCreate(obj, {});
    expect(s.validate(obj, {})).to.deep.equal([]);
    expect(obj).to.deep.equal(withoutRunValues(fixtureObject(gv, 'CustomResourceDefinition', name, 'response')));
    expect(storageSegment(customresourcedefinitions)).to.equal('apiextensions.k8s.io/customresourcedefinitions');
  });

  it('prints NAME and CREATED AT as upstream', () => {
    const table = fixtureTable(gv, 'CustomResourceDefinition');
    const t = customresourcedefinitions.table ?? defaultTable;
    expect(t.columns.map(({ name: n, type, format, priority }) => ({ name: n, type, format, priority }))).to.deep.equal(table.columnDefinitions);
    expect(t.cells(fixtureObject(gv, 'CustomResourceDefinition', name, 'response'))).to.deep.equal(table.rows[0]);
  });

  it('keeps the storage version recorded when the storage version changes', () => {
    const old = structuredClone(fixtureObject(gv, 'CustomResourceDefinition', name, 'response'));
    const next = structuredClone(old);
    const spec = next.spec as { versions: Array<Record<string, unknown>> };
    spec.versions = [{ ...spec.versions[0], storage: false }, { ...spec.versions[0], name: 'v2', storage: true }];
    s.prepareForUpdate(next, old, {});
    expect((next.status as { storedVersions: string[] }).storedVersions).to.deep.equal(['v1', 'v2']);
    expect(next.metadata.generation).to.equal(2);
    expect(s.validateUpdate(next, old, {})).to.deep.equal([]);
  });

  it('refuses a storedVersions entry no longer in spec.versions, and group or plural changes', () => {
    const old = structuredClone(fixtureObject(gv, 'CustomResourceDefinition', name, 'response'));
    const next = structuredClone(old);
    const spec = next.spec as { group: string; versions: Array<Record<string, unknown>> };
    spec.versions = [{ ...spec.versions[0], name: 'v2' }];
    spec.group = 'other.example.com';
    s.prepareForUpdate(next, old, {});
    expect(s.validateUpdate(next, old, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.group: Invalid value: "other.example.com": field is immutable',
      'status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions',
    ]);
  });

  it('marks the CRD Terminating with the cleanup finalizer on the first delete', () => {
    const obj = structuredClone(fixtureObject(gv, 'CustomResourceDefinition', name, 'response'));
    obj.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    s.finalization!.beginDeletion(obj);
    expect(obj.metadata.finalizers).to.deep.equal(['customresourcecleanup.apiextensions.k8s.io']);
    expect((obj.status as { conditions: unknown[] }).conditions).to.deep.equal([{ type: 'Terminating', status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }]);
  });
});
