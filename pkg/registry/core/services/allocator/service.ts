// Which cluster IPs and node ports a Service write claims and gives back (upstream:
// pkg/registry/core/service/storage/alloc.go), with upstream's errors for requested
// values that are out of range or taken.
import { errors, StatusError, type FieldError } from '../../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../../runtime/object.js';
import { index, invalid } from '../../../../apis/validation/field.js';
import { familyOfIP, type IPFamily } from '../../../../util/net/cidr.js';
import { AllocatedError, RangeFullError, type EtcdRangeAllocator } from './etcd.js';
import { AllocationOp } from './ops.js';
import type { IPRange, PortRange } from './ranges.js';

type Obj = Record<string, unknown>;

export interface ServiceAllocators {
  /** One per configured family; the first is --service-cluster-ip-range[0]'s. */
  ips: Array<{ range: IPRange; allocator: EtcdRangeAllocator }>;
  nodePorts: { range: PortRange; allocator: EtcdRangeAllocator };
}

const specOf = (svc: KubeObject): Obj => (isPlainObject(svc.spec) ? svc.spec : (svc.spec = {})) as Obj;
const portsOf = (s: Obj): Obj[] => (Array.isArray(s.ports) ? s.ports.filter(isPlainObject) as Obj[] : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') as string[] : []);

export function needsClusterIP(s: Obj): boolean { return s.type !== 'ExternalName'; }
export function needsNodePort(s: Obj): boolean { return s.type === 'NodePort' || s.type === 'LoadBalancer'; }
export function needsHealthCheck(s: Obj): boolean { return s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local'; }
const isHeadless = (s: Obj): boolean => strings(s.clusterIPs)[0] === 'None' || s.clusterIP === 'None';
const shouldAllocateNodePorts = (s: Obj): boolean =>
  s.type === 'NodePort' || (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== false);

/** The node ports a service holds (ports and health check), each once. */
export function nodePortsOf(s: Obj): number[] {
  const out = new Set<number>();
  for (const p of portsOf(s)) if (typeof p.nodePort === 'number' && p.nodePort !== 0) out.add(p.nodePort);
  if (needsHealthCheck(s) && typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort !== 0) out.add(s.healthCheckNodePort);
  return [...out];
}

/** The cluster IPs a service holds. */
export function clusterIPsOf(s: Obj): string[] {
  if (!needsClusterIP(s) || isHeadless(s)) return [];
  return strings(s.clusterIPs).filter((ip) => ip !== '' && familyOfIP(ip) !== undefined);
}

export class ServiceAllocator {
  constructor(private readonly a: ServiceAllocators) {}

  get families(): IPFamily[] {
    return this.a.ips.map((x) => x.range.family);
  }

  private ipAllocator(family: string) {
    return this.a.ips.find((x) => x.range.family === family);
  }

  /** Fills in spec.clusterIPs and node ports of a new service; the op settles with the write. */
  async allocateCreate(svc: KubeObject, dryRun: boolean): Promise<AllocationOp> {
    const s = specOf(svc);
    this.checkFamilies(svc, s);
    const op = new AllocationOp(dryRun, owner(svc));
    try {
      await this.allocClusterIPs(svc, s, op);
      if (needsNodePort(s)) await this.initNodePorts(svc, s, op);
      if (needsHealthCheck(s)) await this.allocHealthCheckNodePort(s, op);
    } catch (err) {
      await op.revert();
      throw err;
    }
    return op;
  }

  async allocateUpdate(svc: KubeObject, old: KubeObject, dryRun: boolean): Promise<AllocationOp> {
    const s = specOf(svc);
    const o = specOf(old);
    if (needsClusterIP(s)) downgradeFamilies(svc, s, o);
    this.checkFamilies(svc, s);
    const op = new AllocationOp(dryRun, owner(svc));
    try {
      await this.updateClusterIPs(svc, s, o, op);
      if (needsNodePort(o) && !needsNodePort(s)) for (const p of portNumbers(o)) this.releasePort(p, op);
      if (needsNodePort(s)) await this.updateNodePorts(svc, s, o, op);
      const needed = needsHealthCheck(o);
      const needs = needsHealthCheck(s);
      if (!needed && needs) await this.allocHealthCheckNodePort(s, op);
      else if (needed && !needs && typeof o.healthCheckNodePort === 'number') this.releasePort(o.healthCheckNodePort, op);
    } catch (err) {
      await op.revert();
      throw err;
    }
    return op;
  }

  /** Gives back everything a deleted service held. */
  async release(svc: KubeObject): Promise<void> {
    const s = specOf(svc);
    const op = new AllocationOp(false, owner(svc));
    for (const ip of clusterIPsOf(s)) {
      const a = this.ipAllocator(familyOfIP(ip)!);
      const i = a?.range.indexOf(ip);
      if (a && i !== undefined) op.releaseDeferred(a.allocator, i);
    }
    for (const p of nodePortsOf(s)) this.releasePort(p, op);
    await op.commit();
  }

  /**
   * upstream's initIPFamilyFields checks: families must be configured here, and the
   * policy must fit the number of IPs and families. (The strategy already defaulted them.)
   */
  private checkFamilies(svc: KubeObject, s: Obj): void {
    if (!needsClusterIP(s)) return;
    const errs: FieldError[] = [];
    const ips = strings(s.clusterIPs);
    ips.forEach((ip, i) => {
      if (ip === 'None' || ip === '') return;
      if (!familyOfIP(ip)) errs.push(invalid(index('spec.clusterIPs', i), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    });
    if (errs.length > 0) throw errors.invalid('', 'Service', svc.metadata.name ?? '', errs);
    const families = strings(s.ipFamilies);
    if (s.ipFamilyPolicy === 'SingleStack') {
      if (ips.length === 2) errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      if (families.length === 2) errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
    if (errs.length === 0 && !(isHeadless(s) && !hasSelector(s))) {
      if (s.ipFamilyPolicy === 'RequireDualStack' && this.a.ips.length < 2) {
        errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
      }
      families.forEach((f, i) => {
        if (!this.ipAllocator(f)) errs.push(invalid(index('spec.ipFamilies', i), f, 'not configured on this cluster'));
      });
    }
    if (errs.length > 0) throw errors.invalid('', 'Service', svc.metadata.name ?? '', errs);
  }

  private async allocClusterIPs(svc: KubeObject, s: Obj, op: AllocationOp): Promise<void> {
    if (!needsClusterIP(s) || isHeadless(s)) return;
    const families = strings(s.ipFamilies);
    const ips = strings(s.clusterIPs);
    while (ips.length < families.length) ips.push('');
    s.clusterIPs = ips;
    for (let i = 0; i < families.length; i++) await this.allocIP(svc, s, families[i], i, op);
    s.clusterIP = ips[0];
  }

  /** Claims clusterIPs[i] (or a free IP when empty) from `family`'s range. */
  private async allocIP(svc: KubeObject, s: Obj, family: string, i: number, op: AllocationOp): Promise<void> {
    const ips = s.clusterIPs as string[];
    const a = this.ipAllocator(family)!;
    const requested = ips[i];
    if (!requested) {
      try {
        ips[i] = a.range.label(await op.allocateNext(a.allocator));
      } catch (err) {
        throw err instanceof RangeFullError ? errors.internal(new Error(`failed to allocate a serviceIP: ${err.message}`)) : err;
      }
      return;
    }
    const idx = a.range.indexOf(requested);
    const fail = (why: string): StatusError => errors.invalid('', 'Service', svc.metadata.name ?? '',
      [invalid('spec.clusterIPs', [...ips], `failed to allocate IP ${requested}: ${why}`)]);
    if (idx === undefined) {
      throw fail(`the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${a.range.toString()}`);
    }
    try {
      await op.allocate(a.allocator, idx);
    } catch (err) {
      throw err instanceof AllocatedError ? fail(err.message) : err;
    }
  }

  private async updateClusterIPs(svc: KubeObject, s: Obj, o: Obj, op: AllocationOp): Promise<void> {
    if (isMatchingPreferDualStack(s, o)) return;
    if (!needsClusterIP(o) && needsClusterIP(s)) return this.allocClusterIPs(svc, s, op);
    if (isHeadless(o)) return;
    if (needsClusterIP(o) && !needsClusterIP(s)) {
      for (const ip of clusterIPsOf(o)) this.releaseIP(ip, op);
      return;
    }
    const oldFamilies = strings(o.ipFamilies);
    const families = strings(s.ipFamilies);
    if (oldFamilies.length === 1 && families.length === 2) {
      const ips = strings(s.clusterIPs);
      if (ips.length < 2) ips.push('');
      s.clusterIPs = ips;
      await this.allocIP(svc, s, families[1], 1, op);
    } else if (oldFamilies.length === 2 && families.length === 1) {
      const ip = strings(o.clusterIPs)[1];
      if (ip) this.releaseIP(ip, op);
    }
  }

  /** upstream initNodePorts: ports with one port number share one node port. */
  private async initNodePorts(svc: KubeObject, s: Obj, op: AllocationOp): Promise<void> {
    const byPort = new Map<unknown, number>();
    const list = portsOf(s);
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      const np = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (np === 0 && !shouldAllocateNodePorts(s)) continue;
      const shared = byPort.get(p.port);
      if (shared === undefined) {
        const requested = np || (list.find((q) => q.port === p.port && typeof q.nodePort === 'number' && q.nodePort !== 0)?.nodePort as number | undefined) || 0;
        if (requested) {
          await this.allocPort(svc, requested, index('spec.ports', i) + '.nodePort', op);
          p.nodePort = requested;
          byPort.set(p.port, requested);
        } else {
          p.nodePort = await this.allocNextPort(op);
          byPort.set(p.port, p.nodePort as number);
        }
      } else if (np !== shared) {
        if (np === 0) p.nodePort = shared;
        else await this.allocPort(svc, np, index('spec.ports', i) + '.nodePort', op);
      }
    }
  }

  private async updateNodePorts(svc: KubeObject, s: Obj, o: Obj, op: AllocationOp): Promise<void> {
    const oldPorts = portNumbers(o);
    const claimed = new Set<number>();
    const list = portsOf(s);
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      const np = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (np === 0 && !shouldAllocateNodePorts(s)) continue;
      if (np !== 0) {
        if (!oldPorts.includes(np) && !claimed.has(np)) {
          await this.allocPort(svc, np, index('spec.ports', i) + '.nodePort', op);
          claimed.add(np);
        }
      } else {
        p.nodePort = await this.allocNextPort(op);
      }
    }
    const kept = portNumbers(s);
    for (const np of oldPorts) if (!kept.includes(np)) this.releasePort(np, op);
  }

  private async allocHealthCheckNodePort(s: Obj, op: AllocationOp): Promise<void> {
    const { range, allocator } = this.a.nodePorts;
    const requested = typeof s.healthCheckNodePort === 'number' ? s.healthCheckNodePort : 0;
    if (requested) {
      const why = await this.claimPort(requested, op);
      if (why) throw errors.internal(new Error(`failed to allocate requested HealthCheck NodePort ${requested}: ${why}`));
      return;
    }
    try {
      s.healthCheckNodePort = Number(range.label(await op.allocateNext(allocator)));
    } catch (err) {
      if (err instanceof RangeFullError) throw errors.internal(new Error(`failed to allocate a HealthCheck NodePort 0: ${err.message}`));
      throw err;
    }
  }

  private async allocPort(svc: KubeObject, port: number, field: string, op: AllocationOp): Promise<void> {
    const why = await this.claimPort(port, op);
    if (why) throw errors.invalid('', 'Service', svc.metadata.name ?? '', [invalid(field, port, why)]);
  }

  /** Claims one requested port; the reason it cannot be had, or undefined. */
  private async claimPort(port: number, op: AllocationOp): Promise<string | undefined> {
    const { range, allocator } = this.a.nodePorts;
    const i = range.indexOf(port);
    if (i === undefined) return `provided port is not in the valid range. The range of valid ports is ${range.toString()}`;
    try {
      await op.allocate(allocator, i);
      return undefined;
    } catch (err) {
      if (err instanceof AllocatedError) return err.message;
      throw err;
    }
  }

  private async allocNextPort(op: AllocationOp): Promise<number> {
    const { range, allocator } = this.a.nodePorts;
    try {
      return Number(range.label(await op.allocateNext(allocator)));
    } catch (err) {
      if (err instanceof RangeFullError) throw errors.internal(new Error(`failed to allocate a nodePort: ${err.message}`));
      throw err;
    }
  }

  private releasePort(port: number, op: AllocationOp): void {
    const i = this.a.nodePorts.range.indexOf(port);
    if (i !== undefined) op.releaseDeferred(this.a.nodePorts.allocator, i);
  }

  private releaseIP(ip: string, op: AllocationOp): void {
    const a = this.ipAllocator(familyOfIP(ip) ?? '');
    const i = a?.range.indexOf(ip);
    if (a && i !== undefined) op.releaseDeferred(a.allocator, i);
  }
}

/**
 * upstream's update-only family rules: SingleStack with the old IPs and families drops
 * the secondary ones (given back on commit); any other policy may not drop them.
 */
function downgradeFamilies(svc: KubeObject, s: Obj, o: Obj): void {
  const ips = strings(s.clusterIPs);
  const families = strings(s.ipFamilies);
  if (s.ipFamilyPolicy === 'SingleStack') {
    if (sameList(s.clusterIPs, o.clusterIPs) && ips.length > 1) s.clusterIPs = ips.slice(0, 1);
    if (sameList(s.ipFamilies, o.ipFamilies) && families.length > 1) s.ipFamilies = families.slice(0, 1);
    return;
  }
  const errs: FieldError[] = [];
  if (ips.length > 0 && ips.length < strings(o.clusterIPs).length) {
    errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"));
  }
  if (families.length > 0 && families.length < strings(o.ipFamilies).length) {
    errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"));
  }
  if (errs.length > 0) throw errors.invalid('', 'Service', svc.metadata.name ?? '', errs);
}

function owner(svc: KubeObject): string {
  return `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`;
}

function hasSelector(s: Obj): boolean {
  return isPlainObject(s.selector) && Object.keys(s.selector).length > 0;
}

/** Node port numbers of spec.ports (not the health check port). */
function portNumbers(s: Obj): number[] {
  return portsOf(s).map((p) => p.nodePort).filter((n): n is number => typeof n === 'number' && n !== 0);
}

const sameList = (a: unknown, b: unknown): boolean => JSON.stringify(strings(a)) === JSON.stringify(strings(b));

/** PreferDualStack services keep their IPs when the cluster changes dual-stackness. */
function isMatchingPreferDualStack(s: Obj, o: Obj): boolean {
  return s.type === o.type && needsClusterIP(s) && s.ipFamilyPolicy === 'PreferDualStack' && o.ipFamilyPolicy === 'PreferDualStack'
    && sameList(s.clusterIPs, o.clusterIPs) && sameList(s.ipFamilies, o.ipFamilies);
}
