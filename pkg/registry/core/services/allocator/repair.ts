// The repair loop (upstream: the ipallocator and portallocator controllers' Repair):
// compares what the stored Services hold with what the allocation keys say, at one etcd
// revision. Items a service holds but nobody claimed are claimed; duplicates and values
// out of range are reported; claims no service holds are released once they stayed
// unheld for several runs (a create in flight holds its claim before its service exists).
import type { Logger } from 'pino';
import type { KubeObject } from '../../../../runtime/object.js';
import { bigIntToIP, familyOfIP, ipToBigInt } from '../../../../util/net/cidr.js';
import type { Allocation, EtcdRangeAllocator } from './etcd.js';
import { clusterIPsOf, nodePortsOf, type ServiceAllocators } from './service.js';
import type { Range } from './ranges.js';

/** upstream numRepairsBeforeLeakCleanup. */
const runsBeforeLeakCleanup = 3;

export interface ServiceList { items: KubeObject[]; resourceVersion: string }

export interface RepairReport {
  claimed: string[];
  released: string[];
  duplicates: string[];
  outOfRange: string[];
}

interface Kind {
  name: 'IP' | 'port';
  allocator: EtcdRangeAllocator;
  /** Ranges whose items live under this allocator's keys, and how to find an item's index. */
  ranges: Array<{ range: Range; allocator: EtcdRangeAllocator; indexOf(label: string): number | undefined }>;
  held(svc: KubeObject): string[];
  /** Unheld claims seen: label -> create revision and the number of runs seen. */
  suspects: Map<string, { createRevision: string; runs: number }>;
}

export class AllocationRepair {
  private readonly kinds: Kind[];

  constructor(private readonly listServices: () => Promise<ServiceList>, a: ServiceAllocators, private readonly log: Logger) {
    const spec = (svc: KubeObject) => (svc.spec ?? {}) as Record<string, unknown>;
    this.kinds = [
      {
        name: 'IP', allocator: a.ips[0].allocator, suspects: new Map(),
        ranges: a.ips.map((x) => ({ range: x.range, allocator: x.allocator, indexOf: (l: string) => x.range.indexOf(l) })),
        held: (svc) => clusterIPsOf(spec(svc)).map(canonicalIP),
      },
      {
        name: 'port', allocator: a.nodePorts.allocator, suspects: new Map(),
        ranges: [{ range: a.nodePorts.range, allocator: a.nodePorts.allocator, indexOf: (l: string) => a.nodePorts.range.indexOf(Number(l)) }],
        held: (svc) => nodePortsOf(spec(svc)).map(String),
      },
    ];
  }

  async runOnce(): Promise<RepairReport> {
    const list = await this.listServices();
    const report: RepairReport = { claimed: [], released: [], duplicates: [], outOfRange: [] };
    for (const kind of this.kinds) await this.repair(kind, list, report);
    return report;
  }

  private async repair(kind: Kind, list: ServiceList, report: RepairReport): Promise<void> {
    const allocation: Allocation = await kind.allocator.read(list.resourceVersion);
    const holders = new Map<string, string>();
    for (const svc of list.items) {
      const who = `${svc.metadata.namespace}/${svc.metadata.name}`;
      for (const label of kind.held(svc)) {
        const r = kind.ranges.find((x) => x.indexOf(label) !== undefined);
        if (!r) {
          report.outOfRange.push(label);
          this.log.warn({ service: who, [kind.name]: label }, `the ${kind.name} of this service is not within the configured range; please recreate`);
          continue;
        }
        const other = holders.get(label);
        if (other !== undefined) {
          report.duplicates.push(label);
          this.log.error({ services: [other, who], [kind.name]: label }, `the ${kind.name} was assigned to multiple services; please recreate`);
          continue;
        }
        holders.set(label, who);
        if (!allocation.entries.has(label)) {
          await r.allocator.allocate(r.indexOf(label)!, who).then(() => {
            report.claimed.push(label);
            this.log.warn({ service: who, [kind.name]: label }, `the ${kind.name} of this service was not allocated; repaired`);
          }, () => undefined);
        }
      }
    }
    const seen = new Set<string>();
    for (const [label, createRevision] of allocation.entries) {
      if (holders.has(label)) continue;
      seen.add(label);
      const s = kind.suspects.get(label);
      const runs = s && s.createRevision === createRevision ? s.runs + 1 : 1;
      if (runs < runsBeforeLeakCleanup) {
        kind.suspects.set(label, { createRevision, runs });
        continue;
      }
      kind.suspects.delete(label);
      if (await kind.allocator.releaseIfUnchanged(label, createRevision)) {
        report.released.push(label);
        this.log.info({ [kind.name]: label }, `released a leaked service ${kind.name}`);
      }
    }
    for (const label of kind.suspects.keys()) if (!seen.has(label)) kind.suspects.delete(label);
  }
}

/** Stored IPs may be written loosely (leading zeros, IPv6 case); keys use the canonical form. */
function canonicalIP(ip: string): string {
  return bigIntToIP(ipToBigInt(ip)!, familyOfIP(ip)!);
}
