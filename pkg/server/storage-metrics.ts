// Storage metrics: apiserver_storage_objects, how many objects of each resource etcd
// holds, counted periodically (a keys-only count per resource prefix) as upstream's
// object-count tracker does; and etcd_request_duration_seconds by operation and the
// stored Go type upstream names (`*core.ConfigMap`).
import type { Etcd3 } from 'etcd3';
import type { Gauge } from 'prom-client';
import type { Logger } from 'pino';
import { storageSegment, type Scheme } from '../runtime/scheme.js';
import type { EtcdObserver } from '../storage/etcd/store.js';
import { apiserverMetrics, etcdTypeName } from './metrics.js';

/**
 * Reports each etcd operation under the Go type of the resource its key belongs to, and
 * each list under the resource (`deployments.apps`).
 */
export function etcdRequestObserver(scheme: Scheme, etcdPrefix: string): EtcdObserver {
  const resources = new Map(scheme.storedResources().map((d) => [`${etcdPrefix}/${storageSegment(d)}/`,
    { type: etcdTypeName(d.group, d.kind), resource: d.group ? `${d.plural}.${d.group}` : d.plural }]));
  const resourceOf = (key: string) => {
    const k = key.endsWith('/') ? key : `${key}/`;
    for (const [prefix, r] of resources) if (k.startsWith(prefix)) return r;
    return { type: 'unknown', resource: 'unknown' };
  };
  const m = apiserverMetrics();
  return {
    request: (operation, key, seconds) => m.etcdRequestDuration.observe({ operation, type: resourceOf(key).type }, seconds),
    list: (prefix, fetched, evaluated, returned) => {
      const resource = resourceOf(prefix).resource;
      m.storageList.total.inc({ resource });
      m.storageList.fetched.inc({ resource }, fetched);
      m.storageList.evaluated.inc({ resource }, evaluated);
      m.storageList.returned.inc({ resource }, returned);
    },
  };
}

export interface CountedResource { prefix: string; label: string }

/** The last counts, by resource, for APF's work estimates. */
export interface StorageObjectCounter { stop(): void; count(resource: string): number | undefined }

export function startStorageObjectCounter(client: Etcd3, resources: CountedResource[], gauge: Gauge<'resource'>, log: Logger, intervalMs = 60_000): StorageObjectCounter {
  let stopped = false;
  const last = new Map<string, number>();
  const countAll = async () => {
    for (const r of resources) {
      if (stopped) return;
      try {
        const n = await client.getAll().prefix(r.prefix).count();
        last.set(r.label, n);
        gauge.set({ resource: r.label }, n);
      } catch (err) {
        // An unreachable etcd leaves the last figure; the etcd health checks report the outage.
        log.debug({ err, resource: r.label }, 'could not count stored objects');
        return;
      }
    }
  };
  void countAll();
  const timer = setInterval(() => { void countAll(); }, intervalMs);
  timer.unref();
  return { stop: () => { stopped = true; clearInterval(timer); }, count: (resource) => last.get(resource) };
}
