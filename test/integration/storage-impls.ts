// The storage implementations the storage contract suites run against: etcd itself, and
// the watch cache in front of it. Both must pass the same tests.
import type { Etcd3 } from 'etcd3';
import { EtcdStorage } from '../../pkg/storage/etcd/store.js';
import { CachedStorage } from '../../pkg/storage/cacher/index.js';
import type { Storage } from '../../pkg/storage/interfaces.js';

export type ContractStorage = Storage & { currentRevision(): Promise<string>; stop?(): void };

export interface StorageImpl { name: string; make(client: Etcd3): ContractStorage }

/** Test keys are `/<unique prefix>/<resource>/...`: the first two segments are the resource root. */
const testRoot = (key: string): string | undefined => {
  const parts = key.split('/');
  return parts.length >= 3 && parts[2] ? `${parts.slice(0, 3).join('/')}/` : undefined;
};

export const storageImpls: StorageImpl[] = [
  { name: 'etcd', make: (client) => new EtcdStorage(client) },
  { name: 'watch cache', make: (client) => new CachedStorage(new EtcdStorage(client), client, testRoot, { maxPending: 10_000 }) },
];
