// The replica's storage: the main etcd cluster (--etcd-servers, or an embedded etcd) and
// one more per --etcd-servers-overrides server list, each with its own client (over the
// same TLS files), watch cache, compactor and health checks; one routed Storage on top.
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import { storageSegment } from '../runtime/scheme.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { CachedStorage } from '../storage/cacher/index.js';
import { createEtcdClient, type EtcdConnection } from '../storage/etcd/client.js';
import { guardEtcd } from '../storage/etcd/boundary.js';
import { startCompactor } from '../storage/etcd/compactor.js';
import { CompactRevisionTracker } from '../storage/etcd/compact-revision.js';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../storage/etcd/embedded.js';
import { EtcdStorage } from '../storage/etcd/store.js';
import { healthKey } from '../storage/etcd/keys.js';
import type { Storage } from '../storage/interfaces.js';
import { RoutedStorage } from '../storage/routed.js';
import type { ValueTransformer } from '../storage/value/encryption-at-rest.js';
import type { ServerOptions } from './options.js';
import { etcdRequestObserver, storedResources } from './storage-metrics.js';

/** Upstream's DefaultWatchCacheSizes: the resources served without a watch cache unless --watch-cache-sizes names them. */
const defaultUncached = ['events', 'events.events.k8s.io'];

/** One etcd cluster and what runs against it. */
export interface EtcdCluster {
  /** Its health checks' names: `etcd` for the main cluster, `etcd-override-<i>` for the others. */
  checkName: string;
  readyCheckName: string;
  connection: EtcdConnection;
  /** Key prefixes of the resources it holds; empty for the main one (everything else). */
  prefixes: string[];
  /** Its etcd storage, beneath the watch cache. */
  etcd: EtcdStorage;
  storage: Storage;
  cache?: CachedStorage;
  stop(): void;
}

export interface StorageLayer {
  /** The main cluster's client (elections, allocators, the kubernetes service). */
  client: Etcd3;
  endpoints: string[];
  clusters: EtcdCluster[];
  /** Upstream's health key under --etcd-prefix: what waiting for etcd reads. */
  healthKey: string;
  storage: Storage;
  /** The client of the cluster holding a key prefix. */
  clientFor(prefix: string): Etcd3;
  /** The main cluster's watch cache: custom resources add their roots to it. */
  cache?: CachedStorage;
  stop(): Promise<void>;
}

/** `transformer`: encryption at rest (--encryption-provider-config), for every cluster. */
export async function buildStorage(o: ServerOptions, scheme: ResourceScheme, log: Logger, transformer?: ValueTransformer): Promise<StorageLayer> {
  let embedded: EmbeddedEtcd | undefined;
  let endpoints = o.etcdServers;
  if (endpoints.length === 0) {
    embedded = await startEmbeddedEtcd({ dataDir: o.embeddedEtcdDataDir });
    endpoints = [embedded.endpoint];
    log.info({ endpoint: embedded.endpoint, pid: embedded.pid }, 'started embedded etcd');
  }
  const stored = storedResources(scheme, o.etcdPrefix);
  const observer = etcdRequestObserver(stored);
  const rootOf = (group: string, resource: string) => {
    const defs = scheme.storedResources().filter((d) => d.group === group && d.plural === resource);
    return defs.length > 0 ? `${o.etcdPrefix}/${storageSegment(defs[0]!)}/` : undefined;
  };
  // As upstream: a size of 0 serves the resource uncached, any other size only keeps it
  // cached (caches size themselves by time); Events are uncached unless a size says otherwise.
  const rootOfSetting = (gr: string) => { const dot = gr.indexOf('.'); return rootOf(dot < 0 ? '' : gr.slice(dot + 1), dot < 0 ? gr : gr.slice(0, dot)); };
  const uncached = new Set<string>();
  const keptCached = new Set<string>();
  for (const [gr, size] of o.watchCacheSizes) {
    const root = rootOfSetting(gr);
    if (!root) log.warn({ resource: gr }, '--watch-cache-sizes names no stored resource');
    else if (size === 0) uncached.add(root);
    else { keptCached.add(root); log.warn({ resource: gr, size }, 'Dropping watch-cache-size: watchCache size is now dynamic'); }
  }
  for (const gr of defaultUncached) {
    const root = rootOfSetting(gr);
    if (root && !keptCached.has(root)) uncached.add(root);
  }
  // One cluster per distinct server list; resources naming the same list share it.
  const overrideRoots = new Map<string, string[]>();
  for (const ov of o.etcdServersOverrides) {
    const root = rootOf(ov.group, ov.resource);
    if (!root) { log.warn({ group: ov.group, resource: ov.resource }, '--etcd-servers-overrides names no stored resource; ignored'); continue; }
    const servers = ov.servers.join(';');
    overrideRoots.set(servers, [...(overrideRoots.get(servers) ?? []), root]);
  }
  const allRoots = scheme.storedResources().map((d) => `${o.etcdPrefix}/${storageSegment(d)}/`);
  const overridden = new Set([...overrideRoots.values()].flat());

  const clusters: EtcdCluster[] = [];
  const open = (checkName: string, readyCheckName: string, servers: string[], prefixes: string[], cacheRoots: string[]) => {
    const raw = createEtcdClient({ endpoints: servers, tls: o.etcdTLS }, log.child({ etcd: checkName }));
    // Every user of etcd gets the guarded client: its failures are translated at the boundary.
    const connection = { ...raw, client: guardEtcd(raw.client) };
    const etcd = new EtcdStorage(connection.client, o.storageMediaType, observer, transformer,
      { leaseReuseSeconds: o.leaseReuseDurationSeconds, revisionKey: healthKey(o.etcdPrefix) });
    // What the watch cache's continue pages need to know of compaction, learned from every
    // replica's compactor (one watch per cluster) instead of a question to etcd per page.
    const compactions = o.watchCache ? new CompactRevisionTracker(connection.client).start() : undefined;
    const cache = o.watchCache
      ? new CachedStorage(etcd, connection.client, cacheRoots.filter((r) => !uncached.has(r)),
        { maxPending: 10_000, transformer, ring: ringSizingFromEnv(), knownCompaction: compactions })
      : undefined;
    const compactor = startCompactor(connection.client, o.etcdCompactionIntervalMs, log.child({ etcd: checkName }), compactions);
    const cluster: EtcdCluster = {
      checkName, readyCheckName, connection, prefixes, etcd, storage: cache ?? etcd, cache,
      stop: () => { compactor.stop(); compactions?.stop(); cache?.stop(); connection.close(); },
    };
    clusters.push(cluster);
    return cluster;
  };
  try {
    const main = open('etcd', 'etcd-readiness', endpoints, [], allRoots.filter((r) => !overridden.has(r)));
    [...overrideRoots].forEach(([servers, roots], i) => {
      open(`etcd-override-${i}`, `etcd-override-readiness-${i}`, servers.split(';'), roots, roots);
      log.info({ servers, resources: roots }, 'resources stored on their own etcd cluster (--etcd-servers-overrides)');
    });
    const overrides = clusters.slice(1);
    return {
      client: main.connection.client, endpoints, clusters, cache: main.cache, healthKey: healthKey(o.etcdPrefix),
      clientFor: (prefix) => (overrides.find((c) => c.prefixes.some((p) => prefix.startsWith(p))) ?? main).connection.client,
      storage: overrides.length === 0 ? main.storage : new RoutedStorage(main.storage, overrides.map((c) => ({ prefixes: c.prefixes, storage: c.storage }))),
      async stop() {
        for (const c of clusters) c.stop();
        if (embedded) await embedded.stop();
      },
    };
  } catch (err) {
    for (const c of clusters) c.stop();
    if (embedded) await embedded.stop();
    throw err;
  }
}

/** The start was stopped (SIGTERM) while etcd had not answered yet. */
export class StartupAborted extends Error {
  constructor() {
    super('start-up stopped while waiting for etcd');
    this.name = 'StartupAborted';
  }
}

/**
 * Waits until every cluster answers a read, logging why not every few seconds (the
 * members' TLS handshake failures are logged once each by the clients): a replica whose
 * etcd refuses it says so instead of crashing or hanging silently. Aborting `signal`
 * ends the wait at once with StartupAborted.
 */
export async function waitForEtcd(layer: StorageLayer, log: Logger, signal?: AbortSignal): Promise<void> {
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    const fail = () => reject(new StartupAborted());
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);
  for (const c of layer.clusters) {
    let lastLog = 0;
    for (;;) {
      try {
        await Promise.race([c.connection.client.get(layer.healthKey).exec(), aborted]);
        break;
      } catch (err) {
        if (err instanceof StartupAborted) throw err;
        if (Date.now() - lastLog > 10_000) {
          lastLog = Date.now();
          const tls = c.connection.handshakes.describe();
          log.error({ etcd: c.checkName, endpoints: c.connection.endpoints, error: (err as Error).message, ...(tls ? { tls } : {}) }, 'waiting for etcd');
        }
        await Promise.race([new Promise((r) => setTimeout(r, 1000)), aborted]);
      }
    }
  }
}

/**
 * Upstream's ring sizing, but for KUBE_WATCH_CACHE_EVENT_FRESH_MS: tests shorten how long
 * events count as fresh (0: never), so a server's ring lets events go without 75 s of writes.
 */
function ringSizingFromEnv(): { freshMs: number } | undefined {
  const v = process.env.KUBE_WATCH_CACHE_EVENT_FRESH_MS;
  return v !== undefined && /^\d+$/.test(v) ? { freshMs: Number(v) } : undefined;
}
