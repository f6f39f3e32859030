// `kubectl get hpa`: reference, targets as current/target, min/max pods and replicas; the
// same cells from either version (printed from the v2 form).
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

const hpaDocs = {
  "scaleTargetRef": "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.",
  "metrics": "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.",
  "minReplicas": "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.",
  "maxReplicas": "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.",
  "currentReplicas": "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler."
};

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? v : {});

export function hpaTable(toV2: (obj: KubeObject) => KubeObject): TableConvertor {
  return {
    columns: [
      nameColumn(),
      column('Reference', 'string', hpaDocs.scaleTargetRef),
      column('Targets', 'string', hpaDocs.metrics),
      column('MinPods', 'string', hpaDocs.minReplicas),
      column('MaxPods', 'string', hpaDocs.maxReplicas),
      column('Replicas', 'string', hpaDocs.currentReplicas),
      ageColumn(),
    ],
    cells: (obj) => {
      const v2 = toV2(obj);
      const spec = o(v2.spec);
      const status = o(v2.status);
      const ref = o(spec.scaleTargetRef);
      return [
        obj.metadata.name ?? '',
        `${String(ref.kind ?? '')}/${String(ref.name ?? '')}`,
        formatMetrics(Array.isArray(spec.metrics) ? spec.metrics.map(o) : [], Array.isArray(status.currentMetrics) ? status.currentMetrics.map(o) : []),
        typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
        typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0,
        typeof status.currentReplicas === 'number' ? status.currentReplicas : 0,
        humanAge(obj.metadata.creationTimestamp),
      ];
    },
  };
}

const maxShown = 4;

function formatMetrics(specs: Obj[], statuses: Obj[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((m, i) => {
    const key = m.type === 'ContainerResource' ? 'containerResource' : String(m.type ?? '').toLowerCase();
    const target = o(o(m[key]).target);
    const current = o(o(o(statuses[i])[key]).current);
    const has = statuses.length > i && isPlainObject(o(statuses[i])[key]);
    switch (m.type) {
      case 'Resource':
      case 'ContainerResource':
        if (target.averageValue !== undefined) return `${has && current.averageValue !== undefined ? String(current.averageValue) : '<unknown>'}/${String(target.averageValue)}`;
        return `${has && typeof current.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>'}/${typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>'}`;
      case 'Pods':
        return `${has && current.averageValue !== undefined ? String(current.averageValue) : '<unknown>'}/${String(target.averageValue ?? '')}`;
      case 'Object':
      case 'External':
        if (target.averageValue !== undefined) {
          return `${has && current.averageValue !== undefined ? String(current.averageValue) : '<unknown>'}/${String(target.averageValue)} (avg)`;
        }
        return `${has && current.value !== undefined ? String(current.value) : '<unknown>'}/${String(target.value ?? '')}`;
      default:
        return '<unknown type>';
    }
  });
  return list.length > maxShown ? `${list.slice(0, maxShown).join(', ')} + ${list.length - maxShown} more...` : list.join(', ');
}
