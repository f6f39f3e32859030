// HorizontalPodAutoscaler: upstream's v2 defaults and validation. The v1 strategy checks
// the v2 form it converts to, as upstream validates the internal object.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { child, index, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { DefaultCPUUtilization } from './conversion.js';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const metricTypes = ['Object', 'Pods', 'Resource', 'External', 'ContainerResource'];

const scaleUpDefaults = { stabilizationWindowSeconds: 0, selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const scaleDownDefaults = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

function defaultRules(rules: unknown, defaults: Obj): Obj {
  const r = { ...o(rules) };
  for (const [k, v] of Object.entries(defaults)) {
    if (r[k] === undefined || r[k] === null || (k === 'policies' && Array.isArray(r[k]) && (r[k] as unknown[]).length === 0)) r[k] = structuredClone(v);
  }
  return r;
}

export class HPAStrategy extends BaseStrategy {
  constructor(private readonly version: 'v1' | 'v2', private readonly toV2: (obj: KubeObject) => KubeObject) {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true });
  }

  override applyDefaults(obj: KubeObject): void {
    if (!isPlainObject(obj.spec)) obj.spec = {};
    const spec = obj.spec as Obj;
    if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
    if (this.version === 'v1') return;
    if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
      spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DefaultCPUUtilization } } }];
    }
    if (isPlainObject(spec.behavior)) {
      spec.behavior = { scaleUp: defaultRules(spec.behavior.scaleUp, scaleUpDefaults), scaleDown: defaultRules(spec.behavior.scaleDown, scaleDownDefaults) };
    }
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    obj.status = this.version === 'v1' ? { currentReplicas: 0, desiredReplicas: 0 } : { currentMetrics: null, desiredReplicas: 0 };
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const spec = o(this.version === 'v1' ? this.toV2(obj).spec : obj.spec);
    const errs: FieldError[] = [];
    const min = spec.minReplicas;
    const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
    if (typeof min === 'number' && min < 1) errs.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
    if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
    if (typeof min === 'number' && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
    const ref = o(spec.scaleTargetRef);
    for (const f of ['kind', 'name']) {
      const v = typeof ref[f] === 'string' ? (ref[f] as string) : '';
      if (v === '') errs.push(required(`spec.scaleTargetRef.${f}`));
      else for (const msg of isValidPathSegmentName(v)) errs.push(invalid(`spec.scaleTargetRef.${f}`, v, msg));
    }
    (Array.isArray(spec.metrics) ? spec.metrics.map(o) : []).forEach((m, i) => {
      const p = index('spec.metrics', i);
      if (!m.type) errs.push(required(child(p, 'type'), 'must specify a metric source type'));
      if (!metricTypes.includes(m.type as string)) errs.push(notSupported(child(p, 'type'), m.type ?? '', metricTypes));
      for (const key of ['resource', 'containerResource']) {
        const u = o(o(m[key]).target).averageUtilization;
        if (typeof u === 'number' && u < 1) errs.push(invalid(child(p, key, 'target', 'averageUtilization'), u, 'must be greater than 0'));
      }
    });
    return errs;
  }
}
