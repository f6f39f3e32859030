// --encryption-provider-config for this replica: which resource an etcd key belongs to
// (the scheme's stored resources by key prefix; custom resources by their
// `<prefix>/<group>/<plural>/` layout), the transformers, and the KMS checks.
import type { Logger } from 'pino';
import { storageSegment } from '../runtime/scheme.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { EncryptionAtRest } from '../storage/value/encryption-at-rest.js';
import type { GroupResource } from '../storage/value/config/types.js';
import { registerEncryptionMetrics } from '../storage/value/metrics.js';
import type { HealthRegistry } from './healthz/index.js';
import { apiserverMetrics } from '../endpoints/metrics/metrics.js';

export interface EncryptionSettings {
  encryptionProviderConfig?: string;
  encryptionProviderConfigAutomaticReload: boolean;
  etcdPrefix: string;
}

/** Events of events.k8s.io are stored as core events, as upstream's storage does. */
function storageResourceOf(scheme: ResourceScheme, etcdPrefix: string): (key: string) => GroupResource | undefined {
  const byPrefix = new Map<string, GroupResource>();
  for (const d of scheme.storedResources()) {
    const prefix = `${etcdPrefix}/${storageSegment(d)}/`;
    const known = byPrefix.get(prefix);
    if (!known || d.group === '') byPrefix.set(prefix, { group: d.group, resource: d.plural });
  }
  const prefixes = [...byPrefix.keys()].sort((a, b) => b.length - a.length);
  return (key) => {
    const hit = prefixes.find((p) => key.startsWith(p));
    if (hit) return byPrefix.get(hit);
    const rest = key.startsWith(`${etcdPrefix}/`) ? key.slice(etcdPrefix.length + 1).split('/') : [];
    return rest.length >= 3 && rest[0].includes('.') ? { group: rest[0], resource: rest[1] } : undefined;
  };
}

export async function startEncryption(o: EncryptionSettings, scheme: ResourceScheme, log: Logger): Promise<EncryptionAtRest | undefined> {
  if (!o.encryptionProviderConfig) return undefined;
  registerEncryptionMetrics(apiserverMetrics().registry);
  return EncryptionAtRest.start({
    path: o.encryptionProviderConfig,
    reload: o.encryptionProviderConfigAutomaticReload,
    resourceOf: storageResourceOf(scheme, o.etcdPrefix),
    pollMs: Number(process.env.KUBE_ENCRYPTION_CONFIG_POLL_MS) || undefined,
    log: { info: (msg) => log.info(msg), error: (msg, err) => log.error({ err: err.message }, msg) },
  });
}

export function addEncryptionHealthChecks(health: HealthRegistry, encryption: EncryptionAtRest | undefined): void {
  if (encryption) health.addHealthzAndReadyzChecks(...encryption.healthChecks());
}
