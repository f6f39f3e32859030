// NetworkPolicy: policyTypes default from the rules present, ports default to TCP.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { GoLiteral, goStringSlice } from '../../../runtime/gofmt.js';
import { child, index, invalid, notSupported } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateLabelSelector, type LabelSelector } from '../../../apis/validation/labelselector.js';
import { isValidPortName, isValidPortNum } from '../../../apis/networking/ports.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

const protocols = ['TCP', 'UDP', 'SCTP'];
const policyTypes = ['Ingress', 'Egress'];

function obj(v: unknown): Record<string, unknown> {
  return isPlainObject(v) ? v : {};
}

function rules(spec: Record<string, unknown>, dir: 'ingress' | 'egress'): Record<string, unknown>[] {
  return Array.isArray(spec[dir]) ? (spec[dir] as unknown[]).map(obj) : [];
}

export class NetworkPolicyStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, tracksGeneration: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!isPlainObject(o.spec)) o.spec = {};
    const spec = o.spec as Record<string, unknown>;
    for (const dir of ['ingress', 'egress'] as const) {
      for (const rule of rules(spec, dir)) {
        for (const port of Array.isArray(rule.ports) ? rule.ports : []) {
          if (isPlainObject(port) && (port.protocol === undefined || port.protocol === null)) port.protocol = 'TCP';
        }
      }
    }
    if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
      spec.policyTypes = rules(spec, 'egress').length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
    }
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = obj(o.spec);
    const errs = validateLabelSelector(spec.podSelector as LabelSelector, {}, 'spec.podSelector');
    for (const dir of ['ingress', 'egress'] as const) {
      const peersKey = dir === 'ingress' ? 'from' : 'to';
      rules(spec, dir).forEach((rule, i) => {
        const p = index(`spec.${dir}`, i);
        (Array.isArray(rule.ports) ? rule.ports : []).forEach((port, j) => errs.push(...validatePort(obj(port), index(child(p, 'ports'), j))));
        (Array.isArray(rule[peersKey]) ? rule[peersKey] as unknown[] : []).forEach((peer, j) => {
          const pp = index(child(p, peersKey), j);
          const pe = obj(peer);
          const set = ['podSelector', 'namespaceSelector', 'ipBlock'].filter((k) => pe[k] !== undefined && pe[k] !== null);
          if (set.length === 0) errs.push({ type: 'FieldValueRequired', field: pp, detail: 'must specify a peer' });
          if (pe.ipBlock !== undefined && set.length > 1) errs.push({ type: 'FieldValueForbidden', field: pp, detail: 'may not specify both ipBlock and another peer' });
          for (const k of ['podSelector', 'namespaceSelector']) {
            if (isPlainObject(pe[k])) errs.push(...validateLabelSelector(pe[k] as LabelSelector, {}, child(pp, k)));
          }
        });
      });
    }
    const types = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
    if (types.length > policyTypes.length) {
      errs.push(invalid('spec.policyTypes', new GoLiteral(`&${goStringSlice(types as string[]).replace('[]string', '[]networking.PolicyType')}`), 'may not specify more than two policyTypes'));
      return errs;
    }
    types.forEach((t, i) => {
      if (!policyTypes.includes(t as string)) errs.push(notSupported(index('spec.policyTypes', i), t, policyTypes));
    });
    return errs;
  }
}

function validatePort(port: Record<string, unknown>, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof port.protocol === 'string' && !protocols.includes(port.protocol)) errs.push(notSupported(child(p, 'protocol'), port.protocol, protocols));
  const endPort = typeof port.endPort === 'number' ? port.endPort : undefined;
  if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errs.push(invalid(child(p, 'port'), port.port, msg));
    if (endPort !== undefined) {
      if (endPort < port.port) errs.push(invalid(child(p, 'endPort'), port.port, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(endPort)) errs.push(invalid(child(p, 'endPort'), endPort, msg));
    }
  } else if (typeof port.port === 'string') {
    if (endPort !== undefined) errs.push(invalid(child(p, 'endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(port.port)) errs.push(invalid(child(p, 'port'), port.port, msg));
  } else if (endPort !== undefined) {
    errs.push(invalid(child(p, 'endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}
