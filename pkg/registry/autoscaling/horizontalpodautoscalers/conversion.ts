// autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler, as upstream converts: v1 has
// only the CPU utilization target; every other v2 field rides in the
// autoscaling.alpha.kubernetes.io/* annotations so that v2 -> v1 -> v2 loses nothing.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

export const MetricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
export const MetricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const BehaviorSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
export const ConditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
const roundTrip = [MetricSpecsAnnotation, MetricStatusesAnnotation, BehaviorSpecsAnnotation, ConditionsAnnotation];
export const DefaultCPUUtilization = 80;

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(o) : []);

/** Builds an object in Go's field order, leaving out undefined fields (omitempty). */
function ordered(entries: [string, unknown][]): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

// ---- spec metrics ----

function metricSpecToV1(m: Obj): Obj {
  const t = o(o(m[lower(m.type)]).target);
  switch (m.type) {
    case 'Object': {
      const src = o(m.object);
      return ordered([['type', m.type], ['object', ordered([['target', src.describedObject], ['metricName', o(src.metric).name],
        ['targetValue', t.value ?? '0'], ['selector', o(src.metric).selector], ['averageValue', t.averageValue]])]]);
    }
    case 'Pods': {
      const src = o(m.pods);
      return ordered([['type', m.type], ['pods', ordered([['metricName', o(src.metric).name], ['targetAverageValue', t.averageValue ?? '0'],
        ['selector', o(src.metric).selector]])]]);
    }
    case 'Resource': {
      const src = o(m.resource);
      return ordered([['type', m.type], ['resource', ordered([['name', src.name], ['targetAverageUtilization', t.averageUtilization],
        ['targetAverageValue', t.averageValue]])]]);
    }
    case 'ContainerResource': {
      const src = o(m.containerResource);
      return ordered([['type', m.type], ['containerResource', ordered([['name', src.name], ['targetAverageUtilization', t.averageUtilization],
        ['targetAverageValue', t.averageValue], ['container', src.container]])]]);
    }
    case 'External': {
      const src = o(m.external);
      return ordered([['type', m.type], ['external', ordered([['metricName', o(src.metric).name], ['metricSelector', o(src.metric).selector],
        ['targetValue', t.value], ['targetAverageValue', t.averageValue]])]]);
    }
    default:
      return ordered([['type', m.type]]);
  }
}

function metricSpecFromV1(m: Obj): Obj {
  switch (m.type) {
    case 'Object': {
      const s = o(m.object);
      return { type: m.type, object: ordered([['describedObject', s.target], ['target', ordered([['type', s.averageValue === undefined ? 'Value' : 'AverageValue'],
        ['value', s.targetValue], ['averageValue', s.averageValue]])], ['metric', ordered([['name', s.metricName], ['selector', s.selector]])]]) };
    }
    case 'Pods': {
      const s = o(m.pods);
      return { type: m.type, pods: { metric: ordered([['name', s.metricName], ['selector', s.selector]]), target: ordered([['type', 'AverageValue'], ['averageValue', s.targetAverageValue]]) } };
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const s = o(m[key]);
      const target = ordered([['type', s.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization'],
        ['averageUtilization', s.targetAverageUtilization], ['averageValue', s.targetAverageValue]]);
      return { type: m.type, [key]: ordered([['name', s.name], ['container', s.container], ['target', target]]) };
    }
    case 'External': {
      const s = o(m.external);
      return { type: m.type, external: { metric: ordered([['name', s.metricName], ['selector', s.metricSelector]]),
        target: ordered([['type', s.targetValue === undefined ? 'AverageValue' : 'Value'], ['value', s.targetValue], ['averageValue', s.targetAverageValue]]) } };
    }
    default:
      return { type: m.type };
  }
}

// ---- status metrics ----

function metricStatusToV1(m: Obj): Obj {
  const src = o(m[lower(m.type)]);
  const c = o(src.current);
  switch (m.type) {
    case 'Object':
      return ordered([['type', m.type], ['object', ordered([['target', src.describedObject], ['metricName', o(src.metric).name],
        ['currentValue', c.value ?? '0'], ['selector', o(src.metric).selector], ['averageValue', c.averageValue]])]]);
    case 'Pods':
      return ordered([['type', m.type], ['pods', ordered([['metricName', o(src.metric).name], ['currentAverageValue', c.averageValue ?? '0'],
        ['selector', o(src.metric).selector]])]]);
    case 'Resource':
      return ordered([['type', m.type], ['resource', ordered([['name', src.name], ['currentAverageUtilization', c.averageUtilization],
        ['currentAverageValue', c.averageValue ?? '0']])]]);
    case 'ContainerResource':
      return ordered([['type', m.type], ['containerResource', ordered([['name', src.name], ['currentAverageUtilization', c.averageUtilization],
        ['currentAverageValue', c.averageValue ?? '0'], ['container', src.container]])]]);
    case 'External':
      return ordered([['type', m.type], ['external', ordered([['metricName', o(src.metric).name], ['metricSelector', o(src.metric).selector],
        ['currentValue', c.value ?? '0'], ['currentAverageValue', c.averageValue]])]]);
    default:
      return ordered([['type', m.type]]);
  }
}

function metricStatusFromV1(m: Obj): Obj {
  switch (m.type) {
    case 'Object': {
      const s = o(m.object);
      return { type: m.type, object: ordered([['metric', ordered([['name', s.metricName], ['selector', s.selector]])],
        ['current', ordered([['value', s.currentValue], ['averageValue', s.averageValue]])], ['describedObject', s.target]]) };
    }
    case 'Pods': {
      const s = o(m.pods);
      return { type: m.type, pods: { metric: ordered([['name', s.metricName], ['selector', s.selector]]), current: ordered([['averageValue', s.currentAverageValue]]) } };
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const s = o(m[key]);
      return { type: m.type, [key]: ordered([['name', s.name], ['container', s.container],
        ['current', ordered([['averageValue', s.currentAverageValue], ['averageUtilization', s.currentAverageUtilization]])]]) };
    }
    case 'External': {
      const s = o(m.external);
      return { type: m.type, external: { metric: ordered([['name', s.metricName], ['selector', s.metricSelector]]),
        current: ordered([['value', s.currentValue], ['averageValue', s.currentAverageValue]]) } };
    }
    default:
      return { type: m.type };
  }
}

function lower(t: unknown): string {
  const s = typeof t === 'string' ? t : '';
  return s === 'ContainerResource' ? 'containerResource' : s.toLowerCase();
}

const isCPUUtilization = (m: Obj): boolean =>
  m.type === 'Resource' && o(m.resource).name === 'cpu' && typeof o(o(m.resource).target).averageUtilization === 'number';

function dropRoundTrip(meta: KubeObject['metadata']): void {
  if (!meta.annotations) return;
  const kept = Object.fromEntries(Object.entries(meta.annotations).filter(([k]) => !roundTrip.includes(k)));
  if (Object.keys(kept).length > 0) meta.annotations = kept;
  else delete meta.annotations;
}

function parse(s: string | undefined): unknown[] | Obj | undefined {
  if (s === undefined) return undefined;
  try {
    return JSON.parse(s) as unknown[] | Obj;
  } catch {
    return undefined;
  }
}

/** autoscaling/v2 (the stored form) -> autoscaling/v1. */
export function hpaToV1(v2: KubeObject): KubeObject {
  const out = structuredClone(v2);
  out.apiVersion = 'autoscaling/v1';
  dropRoundTrip(out.metadata);
  const spec = o(v2.spec);
  const status = o(v2.status);
  const metrics = arr(spec.metrics);
  const cpu = metrics.find(isCPUUtilization);
  const others = metrics.filter((m) => !isCPUUtilization(m)).map(metricSpecToV1);
  const current = arr(status.currentMetrics);
  const conditions = arr(status.conditions);
  const ann: Record<string, string> = {};
  if (others.length > 0) ann[MetricSpecsAnnotation] = JSON.stringify(others);
  if (current.length > 0) ann[MetricStatusesAnnotation] = JSON.stringify(current.map(metricStatusToV1));
  if (isPlainObject(spec.behavior)) ann[BehaviorSpecsAnnotation] = JSON.stringify(spec.behavior);
  if (conditions.length > 0) {
    ann[ConditionsAnnotation] = JSON.stringify(conditions.map((c) => ordered([['type', c.type], ['status', c.status],
      ['lastTransitionTime', c.lastTransitionTime], ['reason', c.reason], ['message', c.message]])));
  }
  if (Object.keys(ann).length > 0) out.metadata.annotations = { ...(out.metadata.annotations ?? {}), ...ann };
  out.spec = ordered([['scaleTargetRef', spec.scaleTargetRef], ['minReplicas', spec.minReplicas], ['maxReplicas', spec.maxReplicas ?? 0],
    ['targetCPUUtilizationPercentage', cpu ? o(o(cpu.resource).target).averageUtilization : undefined]]);
  const cpuNow = current.find((m) => m.type === 'Resource' && o(m.resource).name === 'cpu');
  out.status = ordered([['observedGeneration', status.observedGeneration], ['lastScaleTime', status.lastScaleTime],
    ['currentReplicas', status.currentReplicas ?? 0], ['desiredReplicas', status.desiredReplicas ?? 0],
    ['currentCPUUtilizationPercentage', cpuNow ? o(o(cpuNow.resource).current).averageUtilization : undefined]]);
  return out;
}

/** autoscaling/v1 -> autoscaling/v2, taking the round-trip annotations back into fields. */
export function hpaToV2(v1: KubeObject): KubeObject {
  const out = structuredClone(v1);
  out.apiVersion = 'autoscaling/v2';
  const ann = v1.metadata?.annotations ?? {};
  out.metadata = out.metadata ?? {};
  dropRoundTrip(out.metadata);
  const spec = o(v1.spec);
  const status = o(v1.status);
  let metrics: Obj[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  const others = parse(ann[MetricSpecsAnnotation]);
  if (Array.isArray(others)) metrics = [...others.map((m) => metricSpecFromV1(o(m))), ...metrics];
  if (metrics.length === 0) {
    // v1's implicit default, made explicit as upstream's conversion does.
    metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DefaultCPUUtilization } } }];
  }
  const behavior = parse(ann[BehaviorSpecsAnnotation]);
  out.spec = ordered([['scaleTargetRef', spec.scaleTargetRef], ['minReplicas', spec.minReplicas], ['maxReplicas', spec.maxReplicas ?? 0],
    ['metrics', metrics], ['behavior', isPlainObject(behavior) ? behavior : undefined]]);
  let current: Obj[] = [];
  if (typeof status.currentCPUUtilizationPercentage === 'number') {
    current.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } });
  }
  const currentOthers = parse(ann[MetricStatusesAnnotation]);
  if (Array.isArray(currentOthers)) current = currentOthers.map((m) => metricStatusFromV1(o(m)));
  const conditions = parse(ann[ConditionsAnnotation]);
  out.status = ordered([['observedGeneration', status.observedGeneration], ['lastScaleTime', status.lastScaleTime],
    ['currentReplicas', status.currentReplicas === 0 ? undefined : status.currentReplicas], ['desiredReplicas', status.desiredReplicas ?? 0],
    ['currentMetrics', current.length > 0 ? current : null], ['conditions', Array.isArray(conditions) && conditions.length > 0 ? conditions : undefined]]);
  return out;
}
