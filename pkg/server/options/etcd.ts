// Upstream's "etcd" flag set (EtcdOptions): where and how objects are stored. A storage
// flag is added here: its spec, its field and its read, nothing elsewhere.
import { storageMediaTypes, type StorageMediaType } from '../../storage/etcd/codec.js';
import type { FlagSection, FlagValues } from '../flags.js';

export interface EtcdOptions {
  etcdServers: string[];
  etcdPrefix: string;
  etcdCompactionIntervalMs: number;
  /** --storage-media-type: how built-in objects are written to etcd (reads accept all). */
  storageMediaType: StorageMediaType;
  /** --watch-cache: serve watches from one shared etcd watch per resource (default true). */
  watchCache: boolean;
  /** --default-watch-cache-size: events each resource's watch cache keeps for resuming watches. */
  defaultWatchCacheSize: number;
}

export const etcdSection: FlagSection<EtcdOptions> = {
  name: 'etcd',
  flags: [
    // Upstream's default is 100 events, with caches that grow under load; ours do not grow,
    // so the default keeps more. 0 turns the cache off, as upstream.
    { name: 'default-watch-cache-size', type: 'int', default: '1024', usage: 'Events each resource\'s watch cache keeps for resuming watches; 0 disables the cache.' },
    { name: 'etcd-compaction-interval', type: 'duration', default: '5m0s', usage: 'Interval between compactions of etcd history (one replica compacts); 0 disables.' },
    { name: 'etcd-prefix', type: 'string', default: '/registry', usage: 'Prefix of every key this server writes in etcd.' },
    { name: 'etcd-servers', type: 'strings', usage: 'etcd client URLs (scheme://ip:port), comma separated; none: start an embedded etcd.' },
    { name: 'storage-media-type', type: 'string', default: 'application/vnd.kubernetes.protobuf', usage: 'Encoding of built-in objects written to etcd (protobuf, JSON or YAML); all three are read.' },
    { name: 'watch-cache', type: 'bool', default: 'true', usage: 'Serve watches and rv=0 lists from one shared etcd watch per resource.' },
  ],
  read(f: FlagValues): EtcdOptions {
    const cacheSize = f.int('default-watch-cache-size');
    if (cacheSize < 0) throw new Error(`--default-watch-cache-size: must be 0 or more, got ${cacheSize}`);
    return {
      etcdServers: f.list('etcd-servers'),
      etcdPrefix: f.string('etcd-prefix')!,
      etcdCompactionIntervalMs: f.duration('etcd-compaction-interval'),
      storageMediaType: storageMediaType(f.string('storage-media-type')),
      watchCache: f.bool('watch-cache'),
      defaultWatchCacheSize: cacheSize,
    };
  },
};

function storageMediaType(v: string | undefined): StorageMediaType {
  if (v === undefined || v === '') return 'application/vnd.kubernetes.protobuf';
  const t = storageMediaTypes.find((m) => m === v);
  if (!t) throw new Error(`--storage-media-type: unsupported value "${v}": supported values: ${storageMediaTypes.map((m) => `"${m}"`).join(', ')}`);
  return t;
}
