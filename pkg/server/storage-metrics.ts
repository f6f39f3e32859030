// Storage metrics: apiserver_storage_objects, how many objects of each resource etcd
// holds, counted periodically (a keys-only count per resource prefix) as upstream's
// object-count tracker does; and etcd_request_duration_seconds by operation and the
// stored Go type upstream names (`*core.ConfigMap`).
import type { Etcd3 } from 'etcd3';
import type { Gauge } from 'prom-client';
import type { Logger } from 'pino';
import { qualifiedResource } from '../runtime/errors.js';
import { storageSegment } from '../runtime/scheme.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { EtcdObserver } from '../storage/etcd/store.js';
import { apiserverMetrics, etcdTypeName } from '../endpoints/metrics/metrics.js';
import { etcdMetrics } from './etcd-metrics.js';

/** One stored resource's etcd key prefix and the names its metrics carry. */
export interface StoredResource {
  prefix: string;
  /** `*core.ConfigMap`, etcd_request_duration_seconds' type. */
  type: string;
  /** `deployments.apps`, the resource label. */
  resource: string;
}

/** Every stored resource once: a resource served in several versions is stored once. */
export function storedResources(scheme: ResourceScheme, etcdPrefix: string): StoredResource[] {
  const byPrefix = new Map(scheme.storedResources().map((d) => [`${etcdPrefix}/${storageSegment(d)}/`,
    { type: etcdTypeName(d.group, d.kind), resource: qualifiedResource({ group: d.group, resource: d.plural }) }]));
  return [...byPrefix].map(([prefix, r]) => ({ prefix, ...r }));
}

/** Folders remembered (resources times namespaces) before the memory starts over. */
const maxFolders = 10_000;

/**
 * Reports each etcd operation under the Go type of the resource its key belongs to, and
 * each list under the resource (`deployments.apps`).
 */
export function etcdRequestObserver(resources: StoredResource[]): EtcdObserver {
  const unknown: StoredResource = { prefix: '', type: 'unknown', resource: 'unknown' };
  const find = (key: string) => {
    const k = key.endsWith('/') ? key : `${key}/`;
    return resources.find((r) => k.startsWith(r.prefix)) ?? unknown;
  };
  // Every etcd call is labelled: by the key's folder (prefix/resource[/namespace]), looked
  // up once, rather than tried against every stored resource's prefix each time.
  const byFolder = new Map<string, StoredResource>();
  const resourceOf = (key: string) => {
    const folder = key.slice(0, key.lastIndexOf('/') + 1);
    let r = byFolder.get(folder);
    if (!r) {
      r = find(key);
      // The folder decides only when the prefix found covers it and no other prefix
      // reaches into it; otherwise (collection keys, unknown keys) the key decides alone.
      if (r === unknown || !folder.startsWith(r.prefix) || resources.some((o) => o.prefix.length > folder.length && o.prefix.startsWith(folder))) return r;
      if (byFolder.size >= maxFolders) byFolder.clear();
      byFolder.set(folder, r);
    }
    return r;
  };
  const m = apiserverMetrics();
  const etcd = etcdMetrics(m.registry);
  return {
    request: (operation, key, seconds, failed) => {
      const labels = { operation, type: resourceOf(key).type };
      m.etcdRequestDuration.observe(labels, seconds);
      etcd.requests.inc(labels);
      if (failed) etcd.requestErrors.inc(labels);
    },
    list: (prefix, fetched, evaluated, returned) => {
      const resource = resourceOf(prefix).resource;
      m.storageList.total.inc({ resource });
      m.storageList.fetched.inc({ resource }, fetched);
      m.storageList.evaluated.inc({ resource }, evaluated);
      m.storageList.returned.inc({ resource }, returned);
    },
  };
}

/** The last counts, by resource, for APF's work estimates. */
export interface StorageObjectCounter { stop(): void; count(resource: string): number | undefined }

/** `clientFor`: the etcd cluster holding a resource's prefix (--etcd-servers-overrides). 0 ms: not counted. */
export function startStorageObjectCounter(clientFor: (prefix: string) => Etcd3, resources: StoredResource[], gauge: Gauge<'resource'>, log: Logger, intervalMs = 60_000): StorageObjectCounter {
  let stopped = false;
  const last = new Map<string, number>();
  if (!(intervalMs > 0)) return { stop: () => undefined, count: () => undefined };
  const countAll = async () => {
    for (const r of resources) {
      if (stopped) return;
      try {
        const n = await clientFor(r.prefix).getAll().prefix(r.prefix).count();
        last.set(r.resource, n);
        gauge.set({ resource: r.resource }, n);
      } catch (err) {
        // An unreachable etcd leaves the last figure; the etcd health checks report the outage.
        log.debug({ err, resource: r.resource }, 'could not count stored objects');
        return;
      }
    }
  };
  void countAll();
  const timer = setInterval(() => { void countAll(); }, intervalMs);
  timer.unref();
  return { stop: () => { stopped = true; clearInterval(timer); }, count: (resource) => last.get(resource) };
}

/** etcd_bookmark_counts: each progress notification of a resource's etcd watch. */
export function bookmarkObserver(resources: StoredResource[]): (key: string) => void {
  const bookmarks = etcdMetrics().bookmarks;
  return (key) => {
    const k = key.endsWith('/') ? key : `${key}/`;
    const r = resources.find((x) => k.startsWith(x.prefix));
    if (r) bookmarks.inc({ resource: r.resource });
  };
}
