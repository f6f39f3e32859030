import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ResourceDef } from '../../rest/resource.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { hpaToV1, hpaToV2, MetricSpecsAnnotation, MetricStatusesAnnotation, BehaviorSpecsAnnotation, ConditionsAnnotation } from './conversion.js';
import { horizontalpodautoscalersV1, horizontalpodautoscalersV2 } from './index.js';

/** A create as the Store runs it for a version with conversion: stored as v2, answered in the request's version. */
function createStored(def: ResourceDef, body: KubeObject): KubeObject {
  const obj = createThrough(def, body, 'fixtures');
  return def.conversion ? def.conversion.fromStorage(def.conversion.toStorage(obj)) : obj;
}

describe('horizontalpodautoscalers (autoscaling/v2 and v1)', () => {
  it('declares both versions over one storage, v2 preferred', () => {
    expect(horizontalpodautoscalersV2).to.include({ group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', namespaced: true });
    expect(horizontalpodautoscalersV1.shortNames).to.deep.equal(['hpa']);
    expect(horizontalpodautoscalersV2.conversion).to.equal(undefined);
  });

  it('reproduces upstream\'s created v2 hpa and v1 hpa1', () => {
    const v2 = objectFixture('autoscaling_v2', 'HorizontalPodAutoscaler', 'hpa');
    expect(createStored(horizontalpodautoscalersV2, v2.request)).to.deep.equal(withoutVolatile(v2.response));
    const v1 = objectFixture('autoscaling_v1', 'HorizontalPodAutoscaler', 'hpa1');
    expect(createStored(horizontalpodautoscalersV1, v1.request)).to.deep.equal(withoutVolatile(v1.response));
    // hpa1 as v2 clients see it: the default CPU metric, v2's status shape.
    const stored = hpaToV2(withoutVolatile(v1.response));
    expect(stored.spec).to.deep.equal({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 3,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] });
    expect(stored.status).to.deep.equal({ desiredReplicas: 0, currentMetrics: null });
  });

  it('v2-only fields ride through v1 in annotations and come back', () => {
    const v2: KubeObject = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'n', annotations: { keep: 'me' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, minReplicas: 2, maxReplicas: 5, metrics: [
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ], behavior: { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } } },
      status: { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 40 } } }],
        conditions: [{ type: 'AbleToScale', status: 'True', reason: 'Ok', lastTransitionTime: '2024-01-01T00:00:00Z' }] } };
    const v1 = hpaToV1(v2);
    expect(v1.spec).to.deep.equal({ scaleTargetRef: { kind: 'Deployment', name: 'd' }, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 50 });
    expect(v1.status).to.deep.equal({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 });
    const ann = v1.metadata.annotations!;
    expect(ann.keep).to.equal('me');
    expect(ann[MetricSpecsAnnotation]).to.equal('[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]');
    expect(ann[MetricStatusesAnnotation]).to.equal('[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"100m"}}]');
    expect(JSON.parse(ann[BehaviorSpecsAnnotation])).to.deep.equal((v2.spec as Record<string, unknown>).behavior);
    expect(ann[ConditionsAnnotation]).to.equal('[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"Ok"}]');
    const back = hpaToV2(v1);
    expect(back.metadata.annotations).to.deep.equal({ keep: 'me' });
    expect(back.spec).to.deep.equal(v2.spec);
    expect(back.status).to.deep.equal(v2.status);
  });

  it('validates the v2 form for both versions', () => {
    const bad: KubeObject = { metadata: { name: 'h', namespace: 'n' }, spec: { minReplicas: 0, maxReplicas: 0, scaleTargetRef: { kind: 'Deployment' },
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } }] } };
    expect(horizontalpodautoscalersV2.strategy.validate(bad, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.name: Required value',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
    const v1: KubeObject = { apiVersion: 'autoscaling/v1', metadata: { name: 'h', namespace: 'n' }, spec: { minReplicas: 1, maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'd' }, targetCPUUtilizationPercentage: 0 } };
    expect(horizontalpodautoscalersV1.strategy.validate(v1, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']);
  });

  it('prints upstream\'s columns from either version', () => {
    for (const [gv, def] of [['autoscaling_v1', horizontalpodautoscalersV1], ['autoscaling_v2', horizontalpodautoscalersV2]] as const) {
      const fx = tableFixture(gv, 'HorizontalPodAutoscaler');
      expect(def.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    }
    const fx = tableFixture('autoscaling_v1', 'HorizontalPodAutoscaler');
    const v2 = objectFixture('autoscaling_v2', 'HorizontalPodAutoscaler', 'hpa').response;
    const v1 = objectFixture('autoscaling_v1', 'HorizontalPodAutoscaler', 'hpa1').response;
    for (const o of [v1, v2]) o.metadata.creationTimestamp = new Date(Date.now() - 1000).toISOString();
    expect([horizontalpodautoscalersV2.table!.cells(v2), horizontalpodautoscalersV1.table!.cells(v1)]).to.deep.equal(fx.rows);
  });
});
