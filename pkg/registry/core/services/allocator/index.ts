// Service cluster IP and node port allocation over etcd, bound into a Scheme's services
// at server start: the strategy learns the configured IP families, the store gets
// write hooks that claim on create/update and give back on delete.
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import type { ResourceScheme } from '../../../rest/resource-scheme.js';
import type { WriteHooks } from '../../../generic/hooks.js';
import { ServiceStrategy } from '../strategy.js';
import { parseServiceClusterIPRange, parseServiceNodePortRange } from './config.js';
import { EtcdRangeAllocator } from './etcd.js';
import { IPRange } from './ranges.js';
import { ServiceAllocator, type ServiceAllocators } from './service.js';

export interface AllocationConfig {
  client: Etcd3;
  /** --etcd-prefix. */
  etcdPrefix: string;
  serviceClusterIPRange?: string;
  serviceNodePortRange?: string;
}

/** upstream's range keys, as folders of one key per allocated item. */
export function rangeKeys(etcdPrefix: string): { ips: string; nodePorts: string } {
  const root = etcdPrefix.replace(/\/+$/, '');
  return { ips: `${root}/ranges/serviceips/`, nodePorts: `${root}/ranges/servicenodeports/` };
}

export function buildServiceAllocators(c: AllocationConfig): ServiceAllocators {
  const keys = rangeKeys(c.etcdPrefix);
  const ports = parseServiceNodePortRange(c.serviceNodePortRange);
  return {
    ips: parseServiceClusterIPRange(c.serviceClusterIPRange).map((cidr) => {
      const range = new IPRange(cidr);
      return { range, allocator: new EtcdRangeAllocator(c.client, keys.ips, range, 'provided IP is already allocated') };
    }),
    nodePorts: { range: ports, allocator: new EtcdRangeAllocator(c.client, keys.nodePorts, ports, 'provided port is already allocated') },
  };
}

export function serviceWriteHooks(alloc: ServiceAllocator, log: Logger): WriteHooks {
  return {
    async beginCreate(obj, dryRun) {
      const op = await alloc.allocateCreate(obj, dryRun);
      return (ok) => (ok ? op.commit() : op.revert());
    },
    async beginUpdate(obj, old, dryRun) {
      const op = await alloc.allocateUpdate(obj, old, dryRun);
      return (ok) => (ok ? op.commit() : op.revert());
    },
    async afterDelete(obj) {
      // A failed release is a leak the repair loop reclaims; the delete itself succeeded.
      await alloc.release(obj).catch((err: Error) => {
        log.warn({ service: `${obj.metadata.namespace}/${obj.metadata.name}`, err: err.message }, 'releasing service allocations failed');
      });
    },
  };
}

/** Binds allocation into `scheme`'s core/v1 services; returns the allocators (for repair). */
export function bindServiceAllocation(scheme: ResourceScheme, c: AllocationConfig, log: Logger): ServiceAllocators {
  const allocators = buildServiceAllocators(c);
  const alloc = new ServiceAllocator(allocators);
  scheme.bindResource('', 'v1', 'services', {
    strategy: new ServiceStrategy({ families: alloc.families }),
    hooks: serviceWriteHooks(alloc, log),
  });
  return allocators;
}
