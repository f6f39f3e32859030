// storage.k8s.io/v1: every fixture of the group replayed through its strategy and Table.
import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { ResourceDef } from '../rest/resource.js';
import { failure } from '../../../test/harness/failure.js';
import { createThrough, invalidFixture, objectFixture, tableFixture, withoutVolatile } from '../../../test/harness/surface.js';
import { csidrivers } from './csidrivers/index.js';
import { csinodes } from './csinodes/index.js';
import { csistoragecapacities } from './csistoragecapacities/index.js';
import { storageclasses } from './storageclasses/index.js';
import { volumeattachments } from './volumeattachments/index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const gv = 'storage.k8s.io_v1';
const cases: [ResourceDef, string, string][] = [
  [storageclasses, 'fixtures-sc', ''], [csidrivers, 'fixtures.example.com', ''], [csinodes, 'fixtures-node', ''],
  [csistoragecapacities, 'csc', 'fixtures'], [volumeattachments, 'fixtures-va', ''],
];

/** An update as the store runs it: prepareForUpdate then validateUpdate. */
function update(def: ResourceDef, old: KubeObject, change: (o: KubeObject) => void, subresource?: string): { obj: KubeObject; errs: string[] } {
  const obj = structuredClone(old);
  change(obj);
  def.strategy.prepareForUpdate(obj, old, { subresource });
  return { obj, errs: render(def.strategy.validateUpdate(obj, old, { subresource })) };
}

describe('storage.k8s.io/v1', () => {
  for (const [def, name, ns] of cases) {
    it(`${def.kind}: reproduces upstream's created ${name} and its Table`, () => {
      const { request, response } = objectFixture(gv, def.kind, name);
      const created = createThrough(def, request, ns);
      expect(created).to.deep.equal(withoutVolatile(response));
      const fx = tableFixture(gv, def.kind);
      expect(def.table!.columns.map(({ name: n, type, format, priority }) => ({ format, name: n, priority, type }))).to.deep.equal(fx.columnDefinitions);
      const shown = structuredClone(response);
      // Age cells are relative: print the fixture's row at the age it was captured.
      const ageAt = fx.rows[0][fx.columnDefinitions.findIndex((c) => c.name === 'Age')];
      if (typeof ageAt === 'string') shown.metadata.creationTimestamp = new Date(Date.now() - Number.parseInt(ageAt, 10) * 1000).toISOString();
      expect(def.table!.cells(shown)).to.deep.equal(fx.rows[0]);
    });
  }

  it('StorageClass: provisioner-immutable is upstream\'s 422', () => {
    const fx = invalidFixture('storageclass-provisioner-immutable');
    const old = createThrough(storageclasses, objectFixture(gv, 'StorageClass', 'fixtures-sc').request);
    old.metadata.resourceVersion = '5';
    const { errs } = update(storageclasses, old, (o) => Object.assign(o, fx.request.body));
    expect(errs).to.deep.equal([String(fx.response.message).replace(/^.* is invalid: /, '')]);
    const { errs: more } = update(storageclasses, old, (o) => Object.assign(o, { parameters: { a: 'b' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }));
    expect(more).to.deep.equal([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    const bad = failure(() => createThrough(storageclasses, { metadata: { name: 's' }, provisioner: 'a/b/c', reclaimPolicy: 'Recycle' }));
    expect(bad.toStatus().details!.causes!.map((c) => `${c.field}: ${c.message}`)).to.deep.equal([
      "provisioner: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
    ]);
    const def = createThrough(storageclasses, { metadata: { name: 'd', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'p' });
    expect(storageclasses.table!.cells(def)[0]).to.equal('d (default)');
  });

  it('CSIDriver: attachRequired, fsGroupPolicy, podInfoOnMount and modes are fixed', () => {
    const old = createThrough(csidrivers, { metadata: { name: 'd.example.com', resourceVersion: '1' }, spec: {} });
    const { errs } = update(csidrivers, old, (o) => {
      o.spec = { ...(o.spec as object), attachRequired: false, fsGroupPolicy: 'File', podInfoOnMount: true, volumeLifecycleModes: ['Ephemeral'], storageCapacity: true };
    });
    expect(errs).to.deep.equal([
      'spec.attachedRequired: Invalid value: false: field is immutable',
      'spec.fsGroupPolicy: Invalid value: "File": field is immutable',
      'spec.podInfoOnMount: Invalid value: true: field is immutable',
      'spec.volumeLifecycleModes: Invalid value: []string{"Ephemeral"}: field is immutable',
    ]);
    expect(render(csidrivers.strategy.validate({ metadata: { name: 'd' }, spec: { attachRequired: true, podInfoOnMount: false, requiresRepublish: false,
      storageCapacity: false, seLinuxMount: false, fsGroupPolicy: 'Any', volumeLifecycleModes: ['Forever'] } }, {}))).to.deep.equal([
      'spec.fsGroupPolicy: Unsupported value: "Any": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      'spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Ephemeral", "Persistent"',
    ]);
  });

  it('CSINode: drivers need a name and node ID, once each', () => {
    expect(render(csinodes.strategy.validate({ metadata: { name: 'n' }, spec: { drivers: [{ name: 'a.io', nodeID: 'x' }, { name: 'a.io', nodeID: '' }] } }, {}))).to.deep.equal([
      'spec.drivers[1].nodeID: Required value', 'spec.drivers[1].name: Duplicate value: "a.io"']);
  });

  it('VolumeAttachment: exactly one source, immutable spec, status through /status only', () => {
    expect(render(volumeattachments.strategy.validate({ metadata: { name: 'v' }, spec: { attacher: 'a.io', nodeName: 'n', source: {} } }, {}))).to.deep.equal([
      'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
    const old = createThrough(volumeattachments, objectFixture(gv, 'VolumeAttachment', 'fixtures-va').request);
    old.metadata.resourceVersion = '2';
    const main = update(volumeattachments, old, (o) => { (o.spec as Record<string, unknown>).nodeName = 'other'; o.status = { attached: true }; });
    expect(main.obj.status).to.deep.equal({ attached: false });
    expect(main.errs).to.have.length(1);
    expect(main.errs[0]).to.match(/^spec: Invalid value: .*: field is immutable$/);
    const st = update(volumeattachments, old, (o) => { (o.spec as Record<string, unknown>).nodeName = 'other'; o.status = { attached: true }; }, 'status');
    expect([st.obj.status, (st.obj.spec as Record<string, unknown>).nodeName, st.errs]).to.deep.equal([{ attached: true }, 'fixtures-node', []]);
  });

  it('CSIStorageCapacity: class and topology are immutable', () => {
    const old: KubeObject = { metadata: { name: 'c', namespace: 'n', resourceVersion: '1' }, storageClassName: 'a' };
    expect(update(csistoragecapacities, old, (o) => { o.storageClassName = 'b'; o.capacity = '-1'; }).errs).to.deep.equal([
      'capacity: Invalid value: "-1": must be greater than or equal to 0', 'storageClassName: Invalid value: "b": field is immutable']);
  });
});
