// Service: upstream's defaults (type, affinity, traffic policies, port protocol and
// targetPort, IP family fields) and ValidateService / ValidateServiceUpdate.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required } from '../../../apis/validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNS1035Label } from '../../../apis/validation/names.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';
import { needsClusterIP, needsHealthCheck, needsNodePort } from './allocator/service.js';

type Obj = Record<string, unknown>;
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const portRangeMsg = 'must be between 1 and 65535, inclusive';

export function spec(obj: KubeObject): Obj {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  return obj.spec as Obj;
}

export function ports(s: Obj): Obj[] {
  return Array.isArray(s.ports) ? (s.ports as unknown[]).filter(isPlainObject) as Obj[] : [];
}

export function isHeadless(s: Obj): boolean {
  return s.clusterIP === 'None';
}

/** upstream SetDefaults_Service (v1 defaults). */
export function defaultService(obj: KubeObject): void {
  const s = spec(obj);
  s.type ??= 'ClusterIP';
  s.sessionAffinity ??= 'None';
  if (s.sessionAffinity === 'ClientIP') {
    const cfg = isPlainObject(s.sessionAffinityConfig) ? s.sessionAffinityConfig : (s.sessionAffinityConfig = {});
    const cip = isPlainObject(cfg.clientIP) ? cfg.clientIP : (cfg.clientIP = {});
    cip.timeoutSeconds ??= 10800;
  }
  for (const p of ports(s)) {
    p.protocol ??= 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if ((s.type === 'NodePort' || s.type === 'LoadBalancer') && !s.externalTrafficPolicy) s.externalTrafficPolicy = 'Cluster';
  if (s.type !== 'ExternalName' && !s.internalTrafficPolicy) s.internalTrafficPolicy = 'Cluster';
  if (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts === undefined) s.allocateLoadBalancerNodePorts = true;
  if (!isPlainObject(obj.status)) obj.status = { loadBalancer: {} };
  else if (!isPlainObject((obj.status as Obj).loadBalancer)) (obj.status as Obj).loadBalancer = {};
}

export interface ServiceStrategyOptions {
  /** The IP families of --service-cluster-ip-range, primary first. */
  families?: string[];
}

export class ServiceStrategy extends BaseStrategy {
  private readonly families: string[];

  constructor(opts: ServiceStrategyOptions = {}) {
    super({ namespaced: true, nameValidator: nameIsDNS1035Label, hasStatus: true });
    this.families = opts.families ?? ['IPv4'];
  }

  override applyDefaults(obj: KubeObject): void {
    defaultService(obj);
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    obj.status = { loadBalancer: {} };
    const s = spec(obj);
    // clusterIP and clusterIPs[0] agree (upstream's normalizeClusterIPs, at create, so
    // the field manager records only what the client sent).
    if (typeof s.clusterIP === 'string' && s.clusterIP !== '' && !(Array.isArray(s.clusterIPs) && s.clusterIPs.length > 0)) {
      s.clusterIPs = [s.clusterIP];
    }
    this.defaultIPFamilies(s);
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'status') return;
    const s = spec(obj);
    const o = spec(old);
    // A changed clusterIP with untouched clusterIPs moves clusterIPs[0] along (upstream's normalizeClusterIPs).
    if (s.clusterIP !== o.clusterIP && deepEqual(s.clusterIPs, o.clusterIPs)) {
      if (!s.clusterIP) delete s.clusterIPs;
      else s.clusterIPs = [s.clusterIP, ...(Array.isArray(o.clusterIPs) ? o.clusterIPs.slice(1) : [])];
    }
    patchAllocatedValues(s, o);
    dropTypeDependentFields(obj, s, o);
    // An update that names no policy keeps the old one (upstream's initIPFamilyFields).
    if ((s.ipFamilyPolicy === undefined || s.ipFamilyPolicy === null) && typeof o.ipFamilyPolicy === 'string' && s.type !== 'ExternalName') {
      s.ipFamilyPolicy = o.ipFamilyPolicy;
    }
    this.defaultIPFamilies(s);
  }

  /** ipFamilyPolicy and ipFamilies as upstream's service REST fills them in. */
  private defaultIPFamilies(s: Obj): void {
    if (s.type === 'ExternalName') return;
    if (s.ipFamilyPolicy === undefined || s.ipFamilyPolicy === null) {
      const selectorless = !isPlainObject(s.selector) || Object.keys(s.selector).length === 0;
      s.ipFamilyPolicy = isHeadless(s) && selectorless ? 'RequireDualStack' : 'SingleStack';
    }
    if (!Array.isArray(s.ipFamilies) || s.ipFamilies.length === 0) {
      const ips = Array.isArray(s.clusterIPs) ? s.clusterIPs.filter((x) => typeof x === 'string' && x !== 'None') as string[] : [];
      if (ips.length > 0) s.ipFamilies = ips.map((ip) => (ip.includes(':') ? 'IPv6' : 'IPv4'));
      else if (s.ipFamilyPolicy === 'SingleStack') s.ipFamilies = [this.families[0]];
      else s.ipFamilies = [...this.families];
    }
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateServiceSpec(spec(obj));
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    const s = spec(obj);
    const o = spec(old);
    const errs: FieldError[] = [];
    // Allocated IPs may not change unless the service leaves or enters a type with one.
    const oldIPs = Array.isArray(o.clusterIPs) ? o.clusterIPs as string[] : [];
    const newIPs = Array.isArray(s.clusterIPs) ? s.clusterIPs as string[] : [];
    if (o.type !== 'ExternalName' && s.type !== 'ExternalName') {
      for (let i = 0; i < oldIPs.length; i++) {
        if (i < newIPs.length && newIPs[i] !== oldIPs[i]) {
          // Upstream names index 0 whichever entry changed, and shows the whole list.
          errs.push(invalid(index('spec.clusterIPs', 0), newIPs, 'may not change once set'));
          break;
        }
      }
    }
    return [...errs, ...validateServiceSpec(s)];
  }
}

/**
 * An update that leaves out allocated values keeps them while the type still needs them
 * (upstream's patchAllocatedValues), so a PUT of a manifest without them is not a change.
 */
function patchAllocatedValues(s: Obj, o: Obj): void {
  if (needsClusterIP(o) && needsClusterIP(s)) {
    if (!s.clusterIP) s.clusterIP = o.clusterIP;
    if (!(Array.isArray(s.clusterIPs) && s.clusterIPs.length > 0) && Array.isArray(o.clusterIPs) && o.clusterIPs.length > 0) {
      s.clusterIPs = [...o.clusterIPs];
    }
  }
  if (needsNodePort(o) && needsNodePort(s)) {
    const nodePortOf = (p: Obj): number => (typeof p.nodePort === 'number' ? p.nodePort : 0);
    const used = new Set(ports(s).map(nodePortOf).filter((n) => n !== 0 && ports(o).some((q) => nodePortOf(q) === n)));
    const byName = new Map(ports(o).map((p) => [p.name ?? '', nodePortOf(p)]));
    for (const p of ports(s)) {
      const old = byName.get(p.name ?? '') ?? 0;
      if (nodePortOf(p) === 0 && old !== 0 && !used.has(old)) p.nodePort = old;
    }
  }
  if (needsHealthCheck(o) && needsHealthCheck(s) && !s.healthCheckNodePort) s.healthCheckNodePort = o.healthCheckNodePort;
}

/**
 * A type change wipes the values the new type has no use for, when the client left them
 * as they were (upstream's dropTypeDependentFields); the allocator gives them back.
 */
function dropTypeDependentFields(obj: KubeObject, s: Obj, o: Obj): void {
  if (needsClusterIP(o) && !needsClusterIP(s)) {
    if (deepEqual(s.clusterIPs ?? [], o.clusterIPs ?? [])) { delete s.clusterIP; delete s.clusterIPs; }
    if (deepEqual(s.ipFamilies ?? [], o.ipFamilies ?? [])) delete s.ipFamilies;
    if (s.ipFamilyPolicy === o.ipFamilyPolicy) delete s.ipFamilyPolicy;
  }
  const nodePorts = (x: Obj) => ports(x).map((p) => (typeof p.nodePort === 'number' ? p.nodePort : 0));
  if (needsNodePort(o) && !needsNodePort(s) && deepEqual(nodePorts(s), nodePorts(o))) {
    for (const p of ports(s)) delete p.nodePort;
  }
  if (needsHealthCheck(o) && !needsHealthCheck(s) && s.healthCheckNodePort === o.healthCheckNodePort) delete s.healthCheckNodePort;
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer') {
    if (s.allocateLoadBalancerNodePorts !== undefined && s.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts) delete s.allocateLoadBalancerNodePorts;
    if (s.loadBalancerClass !== undefined && s.loadBalancerClass === o.loadBalancerClass) delete s.loadBalancerClass;
  }
  if (needsNodePort(o) && !needsNodePort(s) && s.externalTrafficPolicy === o.externalTrafficPolicy) delete s.externalTrafficPolicy;
  if (s.type !== 'LoadBalancer' && isPlainObject(obj.status)) (obj.status as Obj).loadBalancer = {};
}

export function validateServiceSpec(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const p = 'spec';
  const type = s.type as string;
  if (!serviceTypes.includes(type)) errs.push(notSupported(child(p, 'type'), type, serviceTypes));
  if (s.sessionAffinity !== 'None' && s.sessionAffinity !== 'ClientIP') {
    errs.push(notSupported(child(p, 'sessionAffinity'), s.sessionAffinity, ['ClientIP', 'None']));
  }
  const list = ports(s);
  if (type === 'ExternalName') {
    const name = typeof s.externalName === 'string' ? s.externalName.replace(/\.$/, '') : '';
    if (!name) errs.push(required(child(p, 'externalName'), ''));
    else for (const m of isDNS1123Subdomain(name)) errs.push(invalid(child(p, 'externalName'), s.externalName, m));
    if (s.clusterIP) errs.push(forbidden(child(p, 'clusterIP'), 'may not be set for ExternalName services'));
  } else if (list.length === 0 && !isHeadless(s)) {
    errs.push(required(child(p, 'ports'), ''));
  }
  const names = new Set<string>();
  const keys = new Set<string>();
  list.forEach((port, i) => {
    const pp = index(child(p, 'ports'), i);
    const name = typeof port.name === 'string' ? port.name : '';
    if (list.length > 1 && name === '') errs.push(required(child(pp, 'name'), ''));
    else if (name !== '') {
      for (const m of isDNS1123Label(name)) errs.push(invalid(child(pp, 'name'), name, m));
      if (names.has(name)) errs.push(duplicate(child(pp, 'name'), name));
      names.add(name);
    }
    const num = typeof port.port === 'number' ? port.port : 0;
    if (!(Number.isInteger(num) && num >= 1 && num <= 65535)) errs.push(invalid(child(pp, 'port'), num, portRangeMsg));
    if (!protocols.includes(port.protocol as string)) errs.push(notSupported(child(pp, 'protocol'), port.protocol, protocols));
    const tp = port.targetPort;
    if (typeof tp === 'number') {
      if (!(Number.isInteger(tp) && tp >= 1 && tp <= 65535)) errs.push(invalid(child(pp, 'targetPort'), tp, portRangeMsg));
    } else if (typeof tp === 'string') {
      for (const m of validatePortName(tp)) errs.push(invalid(child(pp, 'targetPort'), tp, m));
    }
    if (port.nodePort !== undefined && port.nodePort !== null && port.nodePort !== 0) {
      if (type === 'ClusterIP') errs.push(forbidden(child(pp, 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
      else if (type === 'ExternalName') errs.push(forbidden(child(pp, 'nodePort'), "may not be used when `type` is 'ExternalName'"));
    }
    const k = `${num}/${String(port.protocol)}`;
    if (keys.has(k)) errs.push(duplicate(pp, { port: num, protocol: port.protocol }));
    keys.add(k);
  });
  return errs;
}

/** upstream IsValidPortName (IANA_SVC_NAME). */
export function validatePortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length < 1 || port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}
