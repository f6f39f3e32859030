// Upstream's etcd client metrics beside etcd_request_duration_seconds (metrics.ts):
// etcd_requests_total and etcd_request_errors_total by operation and type,
// etcd_bookmark_counts by resource, apiserver_storage_db_total_size_in_bytes by
// endpoint, polled every --etcd-db-metric-poll-interval from each member's status
// (deprecated in 1.28), and its 1.28 replacement apiserver_storage_size_bytes by
// storage_cluster_id, read at each scrape.
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { createEtcdClient } from '../storage/etcd/client.js';
import { guardEtcd } from '../storage/etcd/boundary.js';
import type { EtcdTLSFiles } from '../storage/etcd/tls/files.js';
import { apiserverMetrics } from '../endpoints/metrics/metrics.js';
import { FastCounter } from '../util/metric-series.js';

export interface EtcdMetrics {
  requests: Counter<'operation' | 'type'>;
  requestErrors: Counter<'operation' | 'type'>;
  bookmarks: Gauge<'resource'>;
  dbSize: Gauge<'endpoint'>;
}

const byRegistry = new WeakMap<Registry, EtcdMetrics>();

export function etcdMetrics(registry: Registry = apiserverMetrics().registry): EtcdMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    const registers = [registry];
    m = {
      requests: new FastCounter({ name: 'etcd_requests_total', help: '[ALPHA] Etcd request counts for each operation and object type.', labelNames: ['operation', 'type'], registers }),
      requestErrors: new FastCounter({ name: 'etcd_request_errors_total', help: '[ALPHA] Etcd failed request counts for each operation and object type.', labelNames: ['operation', 'type'], registers }),
      bookmarks: new Gauge({ name: 'etcd_bookmark_counts', help: '[ALPHA] Number of etcd bookmarks (progress notify events) split by kind.', labelNames: ['resource'], registers }),
      dbSize: new Gauge({ name: 'apiserver_storage_db_total_size_in_bytes',
        help: '[ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.', labelNames: ['endpoint'], registers }),
    };
    byRegistry.set(registry, m);
  }
  return m;
}

/** Polls every member's database size; 0 ms: not polled. */
export function startDBSizePoller(endpoints: string[], tls: EtcdTLSFiles, intervalMs: number, log: Logger, m: EtcdMetrics = etcdMetrics()): { stop(): void } {
  if (!(intervalMs > 0) || endpoints.length === 0) return { stop: () => undefined };
  const quiet = { warn: () => undefined, info: () => undefined };
  // One client per member: a status call answers for the member it reaches.
  const clients = new Map<string, Etcd3>(endpoints.map((ep) => [ep, guardEtcd(createEtcdClient({ endpoints: [ep], tls,
    options: { defaultCallOptions: () => ({ deadline: Date.now() + Math.min(intervalMs, 5000) }) } }, quiet).client)]));
  const poll = async () => {
    for (const [ep, client] of clients) {
      try {
        const status = await client.maintenance.status();
        m.dbSize.set({ endpoint: ep }, Number(status.dbSize));
      } catch (err) {
        log.debug({ endpoint: ep, err: (err as Error).message }, 'could not read the etcd database size');
      }
    }
  };
  void poll();
  const timer = setInterval(() => { void poll(); }, intervalMs);
  timer.unref();
  return { stop: () => { clearInterval(timer); for (const c of clients.values()) c.close(); } };
}

interface SizeSource { client: Etcd3; endpoint: string }
const sizeSources = new WeakMap<Registry, SizeSource[]>();

/**
 * apiserver_storage_size_bytes{storage_cluster_id="etcd-<i>"}: each etcd cluster's (the
 * main one etcd-0, then each --etcd-servers-overrides list) database size from its first
 * member's status, read when scraped with a 1 s deadline, as upstream 1.28's storage
 * monitors do; a cluster that does not answer has no sample. A later call (a server
 * started again in the same process) replaces the clusters.
 */
export function registerStorageSizeMetric(clusters: string[][], tls: EtcdTLSFiles, registry: Registry = apiserverMetrics().registry): { stop(): void } {
  const quiet = { warn: () => undefined, info: () => undefined };
  const sources = clusters.filter((eps) => eps.length > 0).map((eps) => ({
    endpoint: eps[0]!,
    client: guardEtcd(createEtcdClient({ endpoints: [eps[0]!], tls, options: { defaultCallOptions: () => ({ deadline: Date.now() + 1000 }) } }, quiet).client),
  }));
  if (!sizeSources.has(registry)) {
    new Gauge({
      name: 'apiserver_storage_size_bytes', help: '[ALPHA] Size of the storage database file physically allocated in bytes.',
      labelNames: ['storage_cluster_id'], registers: [registry],
      async collect() {
        this.reset();
        await Promise.all((sizeSources.get(registry) ?? []).map(async (src, i) => {
          try {
            this.set({ storage_cluster_id: `etcd-${i}` }, Number((await src.client.maintenance.status()).dbSize));
          } catch {
            // upstream logs and leaves the cluster out
          }
        }));
      },
    });
  }
  sizeSources.set(registry, sources);
  return {
    stop: () => {
      if (sizeSources.get(registry) === sources) sizeSources.set(registry, []);
      for (const src of sources) src.client.close();
    },
  };
}
