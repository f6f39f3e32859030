// Upstream's "etcd" flag set (EtcdOptions): where and how objects are stored. A storage
// flag is added here: its spec, its field and its read, nothing elsewhere.
import { storageMediaTypes, type StorageMediaType } from '../../storage/etcd/codec.js';
import type { EtcdTLSFiles } from '../../storage/etcd/tls/files.js';
import type { FlagSection, FlagValues } from '../flags.js';

/** One --etcd-servers-overrides entry: a resource kept on its own etcd cluster. */
export interface EtcdServersOverride {
  group: string;
  resource: string;
  servers: string[];
}

export interface EtcdOptions {
  etcdServers: string[];
  etcdPrefix: string;
  etcdCompactionIntervalMs: number;
  /** --storage-media-type: how built-in objects are written to etcd (reads accept all). */
  storageMediaType: StorageMediaType;
  /** --watch-cache: serve watches from one shared etcd watch per resource (default true). */
  watchCache: boolean;
  /** --encryption-provider-config: EncryptionConfiguration file (encryption at rest); unset: values are stored as encoded. */
  encryptionProviderConfig?: string;
  /** --encryption-provider-config-automatic-reload: follow changes to that file without a restart. */
  encryptionProviderConfigAutomaticReload: boolean;
  /** --watch-cache-sizes: per resource (`resource[.group]`); 0 serves it without a cache. */
  watchCacheSizes: Map<string, number>;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile (for every cluster, overrides too, as upstream). */
  etcdTLS: EtcdTLSFiles;
  etcdServersOverrides: EtcdServersOverride[];
  etcdHealthcheckTimeoutMs: number;
  etcdReadycheckTimeoutMs: number;
  /** 0 disables apiserver_storage_db_total_size_in_bytes. */
  etcdDBMetricPollIntervalMs: number;
  /** 0 disables apiserver_storage_objects. */
  etcdCountMetricPollPeriodMs: number;
  /** How long one etcd lease serves the writes of objects with a TTL (Events). */
  leaseReuseDurationSeconds: number;
  deleteCollectionWorkers: number;
}

const overridesFormat = '--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated';

export const etcdSection: FlagSection<EtcdOptions> = {
  name: 'etcd',
  flags: [
    // Deprecated in v1.28 and read by nothing there: caches size themselves by time.
    { name: 'default-watch-cache-size', type: 'int', default: '100', usage: 'Default watch cache size. If zero, watch cache will be disabled for resources that do not have a default watch size set.',
      deprecated: 'watch caches are sized automatically and this flag will be removed in a future version' },
    { name: 'delete-collection-workers', type: 'int', default: '1', usage: 'Workers deleting the items of one DeleteCollection call.' },
    { name: 'enable-garbage-collector', type: 'bool', default: 'true', usage: 'Run the garbage collector; keep in step with kube-controller-manager\'s flag.', notImplemented: true },
    { name: 'encryption-provider-config', type: 'string', usage: 'EncryptionConfiguration naming how resources are encrypted at rest in etcd.' },
    { name: 'encryption-provider-config-automatic-reload', type: 'bool', usage: 'Reload --encryption-provider-config when the file changes; its KMS checks become one, kms-providers.' },
    { name: 'etcd-cafile', type: 'string', usage: 'CA bundle that verifies etcd\'s serving certificate.' },
    { name: 'etcd-certfile', type: 'string', usage: 'Client certificate presented to etcd.' },
    { name: 'etcd-compaction-interval', type: 'duration', default: '5m0s', usage: 'Interval between compactions of etcd history (one replica compacts); 0 disables.' },
    { name: 'etcd-count-metric-poll-period', type: 'duration', default: '1m0s', usage: 'How often object counts per resource are polled from etcd; 0 disables.' },
    { name: 'etcd-db-metric-poll-interval', type: 'duration', default: '30s', usage: 'How often the etcd database size metric is polled; 0 disables.' },
    { name: 'etcd-healthcheck-timeout', type: 'duration', default: '2s', usage: 'Timeout of the etcd health check.' },
    { name: 'etcd-keyfile', type: 'string', usage: 'Key of --etcd-certfile.' },
    { name: 'etcd-prefix', type: 'string', default: '/registry', usage: 'Prefix of every key this server writes in etcd.' },
    { name: 'etcd-readycheck-timeout', type: 'duration', default: '2s', usage: 'Timeout of the etcd readiness check.' },
    { name: 'etcd-servers', type: 'strings', usage: 'etcd client URLs (scheme://ip:port), comma separated; none: start an embedded etcd.' },
    { name: 'etcd-servers-overrides', type: 'strings', usage: 'Per-resource etcd servers: group/resource#url;url, comma separated.' },
    { name: 'lease-reuse-duration-seconds', type: 'int', default: '60', usage: 'Seconds one etcd lease is reused for objects with a TTL (Events).' },
    { name: 'storage-backend', type: 'string', usage: 'Storage backend: etcd3 (the only one).' },
    { name: 'storage-media-type', type: 'string', default: 'application/vnd.kubernetes.protobuf', usage: 'Encoding of built-in objects written to etcd (protobuf, JSON or YAML); all three are read.' },
    { name: 'watch-cache', type: 'bool', default: 'true', usage: 'Serve watches and rv=0 lists from one shared etcd watch per resource.' },
    { name: 'watch-cache-sizes', type: 'strings', usage: 'Per-resource watch cache settings: resource[.group]#size, comma separated; 0 serves the resource uncached, any other size keeps it cached (caches size themselves).' },
  ],
  read(f: FlagValues): EtcdOptions {
    const backend = f.string('storage-backend');
    if (backend && backend !== 'etcd3') throw new Error('--storage-backend invalid, allowed values: etcd3. If not specified, it will default to \'etcd3\'');
    return {
      etcdServers: f.list('etcd-servers'),
      etcdPrefix: f.string('etcd-prefix')!,
      etcdCompactionIntervalMs: f.duration('etcd-compaction-interval'),
      storageMediaType: storageMediaType(f.string('storage-media-type')),
      watchCache: f.bool('watch-cache'),
      encryptionProviderConfig: f.string('encryption-provider-config') || undefined,
      encryptionProviderConfigAutomaticReload: f.bool('encryption-provider-config-automatic-reload'),
      watchCacheSizes: watchCacheSizes(f.list('watch-cache-sizes')),
      etcdTLS: { caFile: f.string('etcd-cafile') || undefined, certFile: f.string('etcd-certfile') || undefined, keyFile: f.string('etcd-keyfile') || undefined },
      etcdServersOverrides: f.list('etcd-servers-overrides').map(serversOverride),
      etcdHealthcheckTimeoutMs: f.duration('etcd-healthcheck-timeout'),
      etcdReadycheckTimeoutMs: f.duration('etcd-readycheck-timeout'),
      etcdDBMetricPollIntervalMs: f.duration('etcd-db-metric-poll-interval'),
      etcdCountMetricPollPeriodMs: f.duration('etcd-count-metric-poll-period'),
      leaseReuseDurationSeconds: f.int('lease-reuse-duration-seconds'),
      // Upstream runs one worker for anything below one.
      deleteCollectionWorkers: Math.max(1, f.int('delete-collection-workers')),
    };
  },
};

function storageMediaType(v: string | undefined): StorageMediaType {
  if (v === undefined || v === '') return 'application/vnd.kubernetes.protobuf';
  const t = storageMediaTypes.find((m) => m === v);
  if (!t) throw new Error(`--storage-media-type: unsupported value "${v}": supported values: ${storageMediaTypes.map((m) => `"${m}"`).join(', ')}`);
  return t;
}

/** `group/resource#url;url` (core group: `/events#...`), as upstream's validation reads it. */
function serversOverride(v: string): EtcdServersOverride {
  const tokens = v.split('#');
  const gr = tokens[0]!.split('/');
  if (tokens.length !== 2 || gr.length !== 2) throw new Error(overridesFormat);
  return { group: gr[0]!, resource: gr[1]!, servers: tokens[1]!.split(';').filter((s) => s !== '') };
}

/** `resource[.group]#size` -> size by `resource[.group]`, with upstream's messages. */
function watchCacheSizes(values: string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const c of values) {
    const tokens = c.split('#');
    if (tokens.length !== 2) throw new Error(`invalid value of watch cache size: ${c}`);
    if (!/^[+-]?\d+$/.test(tokens[1]!)) throw new Error(`invalid size of watch cache size: ${c}`);
    const size = Number(tokens[1]);
    if (size < 0) throw new Error(`watch cache size cannot be negative: ${c}`);
    sizes.set(tokens[0]!, size);
  }
  return sizes;
}
