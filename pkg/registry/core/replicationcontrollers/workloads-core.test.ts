import { expect } from 'chai';
import type { ResourceDef } from '../../rest/resource.js';
import {
  columnsOf, createStatus, createThrough, objectFixture, stripVolatile, tableFixture, withVolatileCells,
} from '../../../../test/harness/surface-fixtures.js';
import { podtemplates } from '../podtemplates/index.js';
import { replicationcontrollers } from './index.js';

const kinds: Array<[ResourceDef, string]> = [[podtemplates, 'v1.PodTemplate.pt'], [replicationcontrollers, 'v1.ReplicationController.rc']];

describe('podtemplates and replicationcontrollers', () => {
  for (const [def, fixture] of kinds) {
    it(`creates ${fixture} as upstream answered`, () => {
      const f = objectFixture(fixture);
      expect(stripVolatile(createThrough(def, f.request))).to.deep.equal(stripVolatile(f.response));
    });

    it(`prints ${def.kind} columns and cells as upstream`, () => {
      const t = tableFixture(`v1.${def.kind}`);
      expect(columnsOf(def)).to.deep.equal(t.columnDefinitions);
      const cells = def.table!.cells(createThrough(def, objectFixture(fixture).request));
      expect(cells).to.deep.equal(withVolatileCells(def, t.rows[0]!, cells));
    });
  }

  it('stores replicationcontrollers under upstream\'s controllers key, with scale and a status.replicas field selector', () => {
    expect(replicationcontrollers.storageResource).to.equal('controllers');
    expect(replicationcontrollers.subresources!.map((s) => s.name)).to.deep.equal(['scale', 'status']);
    const rc = createThrough(replicationcontrollers, objectFixture('v1.ReplicationController.rc').request);
    expect(replicationcontrollers.selectableFields!(rc)).to.deep.equal({ 'status.replicas': '0' });
  });

  it('requires a selector matching the template, and Always restarts', () => {
    const status = createStatus(replicationcontrollers, {
      metadata: { name: 'x' },
      spec: { selector: { app: 'other' }, template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } },
    });
    expect(status?.message).to.equal('ReplicationController "x" is invalid: [spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]');
  });
});
