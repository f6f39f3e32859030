// apiserver.config.k8s.io/v1 EncryptionConfiguration, as read from the file (YAML or JSON).
export interface Key { name: string; secret: string }
export interface KMSConfiguration {
  apiVersion: string;
  name: string;
  cachesize?: number;
  endpoint: string;
  /** Milliseconds (the file's Go duration, e.g. "3s", parsed). */
  timeoutMs: number;
  /** The file's spelling, for messages. */
  timeout: string;
}
export interface ProviderConfiguration {
  aesgcm?: { keys: Key[] };
  aescbc?: { keys: Key[] };
  secretbox?: { keys: Key[] };
  identity?: Record<string, never>;
  kms?: KMSConfiguration;
}
export interface ResourceConfiguration { resources: string[]; providers: ProviderConfiguration[] }
export interface EncryptionConfiguration { resources: ResourceConfiguration[] }

export interface GroupResource { group: string; resource: string }

/** schema.ParseGroupResource: the resource up to the first dot, the group after it. */
export function parseGroupResource(s: string): GroupResource {
  const i = s.indexOf('.');
  return i < 0 ? { group: '', resource: s } : { group: s.slice(i + 1), resource: s.slice(0, i) };
}

/** How upstream's messages print a group resource ("secrets", "*.", "*.*", "deployments.apps"). */
export function groupResourceString(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
