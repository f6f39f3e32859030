// Node: upstream's node strategy. The kubelet creates its Node with status, so create keeps
// status; the main endpoint keeps the stored status and the status endpoint the stored spec.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { GoLiteral, goQuote } from '../../../runtime/gofmt.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isValidLabelValue, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateLabelName } from '../../../apis/validation/objectmeta.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';

export const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** NodeSystemInfo's fields: Go always writes them, empty or not. */
const nodeInfoFields = ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion',
  'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'];

function obj(v: unknown): Record<string, unknown> {
  return isPlainObject(v) ? v : {};
}

export class NodeStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, hasStatus: true, statusKeepsMetadata: false });
  }

  /** Upstream's defaults plus the non-omitempty structs Go serializes for every Node. */
  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    if (!isPlainObject(o.status)) o.status = {};
    const status = o.status as Record<string, unknown>;
    const info = obj(status.nodeInfo);
    for (const f of nodeInfoFields) if (typeof info[f] !== 'string') info[f] = '';
    status.nodeInfo = info;
    const daemon = obj(status.daemonEndpoints);
    const kubelet = obj(daemon.kubeletEndpoint);
    if (typeof kubelet.Port !== 'number') kubelet.Port = 0;
    daemon.kubeletEndpoint = kubelet;
    status.daemonEndpoints = daemon;
    // Allocatable defaults to capacity.
    if (status.allocatable === undefined && isPlainObject(status.capacity)) status.allocatable = { ...status.capacity };
  }

  /** Unlike most kinds, a Node's status is accepted on create. */
  override prepareForCreate(o: KubeObject, ctx: StrategyContext): void {
    const status = o.status;
    super.prepareForCreate(o, ctx);
    if (status !== undefined) o.status = status;
    // Dynamic kubelet config is gone: configSource and status.config are dropped.
    delete obj(o.spec).configSource;
    delete obj(o.status).config;
  }

  protected override prepareObjectForUpdate(o: KubeObject, old: KubeObject): void {
    if (obj(old.spec).configSource === undefined) delete obj(o.spec).configSource;
    if (obj(old.status).config === undefined) delete obj(o.status).config;
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = obj(o.spec);
    const errs: FieldError[] = [];
    // Upstream validates taints under metadata (its field path starts from ObjectMeta).
    errs.push(...validateTaints(Array.isArray(spec.taints) ? spec.taints : [], 'metadata.taints'));
    const cidrs = Array.isArray(spec.podCIDRs) ? spec.podCIDRs : [];
    cidrs.forEach((c, i) => {
      if (typeof c !== 'string' || !isCIDR(c)) errs.push(invalid(index('spec.podCIDRs', i), c, 'must be a valid CIDR'));
    });
    if (cidrs.length > 2) errs.push(invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject): FieldError[] {
    const errs = this.validateObject(o);
    const spec = obj(o.spec);
    const oldSpec = obj(old.spec);
    const oldCIDRs = Array.isArray(oldSpec.podCIDRs) ? oldSpec.podCIDRs : [];
    if (oldCIDRs.length > 0 && !deepEqual(oldCIDRs, spec.podCIDRs ?? [])) {
      errs.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
    }
    if (typeof oldSpec.providerID === 'string' && oldSpec.providerID !== '' && oldSpec.providerID !== spec.providerID) {
      errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
    }
    return errs;
  }

  resetFields(subresource: string): string[][] {
    return subresource === 'status' ? [['spec']] : [['status']];
  }
}

/** Taints: a label-name key, a label-value value, a known effect, unique by key and effect. */
export function validateTaints(taints: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((raw, i) => {
    const t = obj(raw);
    const p = index(path, i);
    const key = typeof t.key === 'string' ? t.key : '';
    const value = typeof t.value === 'string' ? t.value : '';
    const effect = typeof t.effect === 'string' ? t.effect : '';
    errs.push(...validateLabelName(key, child(p, 'key')));
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(invalid(child(p, 'value'), value, valueErrs.join(';')));
    if (effect === '') errs.push(required(child(p, 'effect')));
    else if (!taintEffects.includes(effect)) errs.push(notSupported(child(p, 'effect'), effect, taintEffects));
    const k = `${effect}\u0000${key}`;
    if (seen.has(k)) {
      const added = t.timeAdded ? '(*v1.Time)(...)' : '(*v1.Time)(nil)';
      const lit = new GoLiteral(`core.Taint{Key:${goQuote(key)}, Value:${goQuote(value)}, Effect:${goQuote(effect)}, TimeAdded:${added}}`);
      errs.push({ ...duplicate(p, lit), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(k);
  });
  return errs;
}

function isCIDR(s: string): boolean {
  const m = /^(.+)\/(\d{1,3})$/.exec(s);
  if (!m) return false;
  const bits = Number(m[2]);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(m[1]);
  if (v4) return v4.slice(1).every((x) => Number(x) <= 255) && bits <= 32;
  return m[1].includes(':') && /^[0-9a-fA-F:.]+$/.test(m[1]) && bits <= 128;
}
