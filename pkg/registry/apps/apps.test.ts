import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import type { ResourceDef } from '../rest/resource.js';
import { fieldErrorMessage } from '../../runtime/errors.js';
import type { Obj } from '../../apis/core/types.js';
import {
  columnsOf, createStatus, createThrough, invalidFixture, objectFixture, stripVolatile, tableFixture, withVolatileCells,
} from '../../../test/harness/surface-fixtures.js';
import { controllerrevisions } from './controllerrevisions/index.js';
import { daemonsets } from './daemonsets/index.js';
import { deployments } from './deployments/index.js';
import { replicasets } from './replicasets/index.js';
import { statefulsets } from './statefulsets/index.js';

const kinds: Array<[ResourceDef, string]> = [
  [deployments, 'apps_v1.Deployment.d'], [replicasets, 'apps_v1.ReplicaSet.rs'], [statefulsets, 'apps_v1.StatefulSet.ss'],
  [daemonsets, 'apps_v1.DaemonSet.ds'], [controllerrevisions, 'apps_v1.ControllerRevision.cr'],
];

describe('apps/v1 workloads', () => {
  for (const [def, fixture] of kinds) {
    it(`creates ${fixture} as upstream answered`, () => {
      const f = objectFixture(fixture);
      expect(stripVolatile(createThrough(def, f.request))).to.deep.equal(stripVolatile(f.response));
    });

    it(`prints ${def.kind} columns and cells as upstream`, () => {
      const t = tableFixture(`apps_v1.${def.kind}`);
      expect(columnsOf(def)).to.deep.equal(t.columnDefinitions);
      const cells = def.table!.cells(createThrough(def, objectFixture(fixture).request));
      expect(cells).to.deep.equal(withVolatileCells(def, t.rows[0]!, cells));
    });
  }

  for (const c of ['deploy-negative-replicas', 'deploy-no-selector', 'deploy-selector-mismatch']) {
    it(`rejects ${c} with upstream's status`, () => {
      const f = invalidFixture(c);
      expect(createStatus(deployments, f.request.body)).to.deep.equal(f.response);
    });
  }

  it('keeps a deployment selector immutable with upstream\'s message (deploy-selector-immutable)', () => {
    const old = createThrough(deployments, objectFixture('apps_v1.Deployment.d').request);
    const f = invalidFixture('deploy-selector-immutable');
    const next = structuredClone(old);
    const patch = f.request.body.spec as Obj;
    (next.spec as Obj).selector = patch.selector;
    ((next.spec as Obj).template as Obj).metadata = { ...(((next.spec as Obj).template as Obj).metadata as Obj), ...(patch.template as Obj).metadata as Obj };
    deployments.strategy.prepareForUpdate(next, old, {});
    const errs = deployments.strategy.validateUpdate(next, old, {});
    const causes = (f.response.details as { causes: Array<{ field: string; message: string }> }).causes;
    expect(errs.map((e) => ({ field: e.field, message: fieldErrorMessage(e, false) }))).to.deep.equal(causes.map(({ field, message }) => ({ field, message })));
  });

  it('bumps metadata.generation on spec changes only', () => {
    const old = createThrough(deployments, objectFixture('apps_v1.Deployment.d').request);
    expect(old.metadata.generation).to.equal(1);
    const labelsOnly: KubeObject = structuredClone(old);
    labelsOnly.metadata.labels = { x: 'y' };
    deployments.strategy.prepareForUpdate(labelsOnly, old, {});
    expect(labelsOnly.metadata.generation).to.equal(1);
    const scaled: KubeObject = structuredClone(old);
    (scaled.spec as Obj).replicas = 3;
    deployments.strategy.prepareForUpdate(scaled, old, { subresource: 'scale' });
    expect(scaled.metadata.generation).to.equal(2);
    const status: KubeObject = structuredClone(old);
    status.status = { replicas: 1 };
    deployments.strategy.prepareForUpdate(status, old, { subresource: 'status' });
    expect(status.metadata.generation).to.equal(1);
  });

  it('a DaemonSet\'s template generation annotation follows template changes', () => {
    const old = createThrough(daemonsets, objectFixture('apps_v1.DaemonSet.ds').request);
    const next: KubeObject = structuredClone(old);
    (((next.spec as Obj).template as Obj).spec as Obj).terminationGracePeriodSeconds = 5;
    daemonsets.strategy.prepareForUpdate(next, old, {});
    expect(next.metadata.annotations).to.deep.equal({ 'deprecated.daemonset.template.generation': '2' });
    expect(next.metadata.generation).to.equal(2);
  });

  it('forbids StatefulSet spec changes outside upstream\'s mutable fields', () => {
    const old = createThrough(statefulsets, objectFixture('apps_v1.StatefulSet.ss').request);
    const next: KubeObject = structuredClone(old);
    (next.spec as Obj).serviceName = 'other';
    expect(statefulsets.strategy.validateUpdate(next, old, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('validates status writes: non-negative counts, ready and available within replicas', () => {
    const old = createThrough(replicasets, objectFixture('apps_v1.ReplicaSet.rs').request);
    const next: KubeObject = structuredClone(old);
    next.status = { replicas: 1, readyReplicas: 2, availableReplicas: -1 };
    replicasets.strategy.prepareForUpdate(next, old, { subresource: 'status' });
    expect(replicasets.strategy.validateUpdate(next, old, { subresource: 'status' }).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'status.availableReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]);
  });

  it('defaults StatefulSet volumeClaimTemplates as claims', () => {
    const req = structuredClone(objectFixture('apps_v1.StatefulSet.ss').request);
    (req.spec as Obj).volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const ss = createThrough(statefulsets, req);
    expect((ss.spec as Obj).volumeClaimTemplates).to.deep.equal([{
      metadata: { name: 'data', creationTimestamp: null },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    }]);
  });

  it('declares scale for deployments, replicasets and statefulsets, not daemonsets', () => {
    for (const def of [deployments, replicasets, statefulsets]) {
      expect(def.subresources!.find((s) => s.name === 'scale')?.scale).to.deep.equal({
        specReplicasPath: ['spec', 'replicas'], statusReplicasPath: ['status', 'replicas'], selectorPath: ['spec', 'selector'],
      });
    }
    expect(daemonsets.subresources!.map((s) => s.name)).to.deep.equal(['status']);
  });
});
