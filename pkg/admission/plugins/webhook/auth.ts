// How the server authenticates to a webhook: WebhookAdmissionConfiguration names a
// kubeconfig whose users are picked by the webhook's host (upstream's
// AuthenticationInfoResolver): exact name, then `*.` suffix wildcards, then the same
// without a :443 port, then `*`, then the current context's user.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { PluginConfig } from '../../config.js';

export interface WebhookCredentials {
  cert?: string;
  key?: string;
  token?: string;
  username?: string;
  password?: string;
}

export type CredentialResolver = (target: string) => WebhookCredentials | undefined;

const noCredentials: CredentialResolver = () => undefined;

const acceptedVersions = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1']);

/** Reads the plugin's AdmissionConfiguration entry; errors are startup errors, as upstream. */
export function credentialResolverFromConfig(config: PluginConfig | undefined): CredentialResolver {
  const doc = config?.configuration as { apiVersion?: string; kind?: string; kubeConfigFile?: unknown } | undefined | null;
  if (!doc) return noCredentials;
  if (doc.kind !== 'WebhookAdmissionConfiguration' || !acceptedVersions.has(doc.apiVersion ?? '')) {
    throw new Error(`unexpected admission webhook configuration: expected kind WebhookAdmissionConfiguration in apiserver.config.k8s.io/v1, got ${doc.apiVersion ?? ''} ${doc.kind ?? ''}`.trimEnd());
  }
  const file = typeof doc.kubeConfigFile === 'string' ? doc.kubeConfigFile : '';
  if (!file) return noCredentials;
  if (!isAbsolute(file)) throw new Error(`kubeConfigFile: Invalid value: ${JSON.stringify(file)}: must be an absolute file path`);
  return credentialResolverFromKubeconfig(file);
}

type Named<T> = { name?: string } & T;
interface Kubeconfig {
  users?: Array<Named<{ user?: Record<string, unknown> }>>;
  contexts?: Array<Named<{ context?: { user?: string } }>>;
  'current-context'?: string;
}

export function credentialResolverFromKubeconfig(path: string): CredentialResolver {
  const cfg = (parseYaml(readFileSync(path, 'utf8')) ?? {}) as Kubeconfig;
  const base = dirname(path);
  const read = (p: unknown): string | undefined => (typeof p === 'string' && p ? readFileSync(isAbsolute(p) ? p : join(base, p), 'utf8') : undefined);
  const data = (d: unknown): string | undefined => (typeof d === 'string' && d ? Buffer.from(d, 'base64').toString('utf8') : undefined);
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
  const users = new Map<string, WebhookCredentials>();
  for (const u of cfg.users ?? []) {
    const x = u.user ?? {};
    users.set(u.name ?? '', {
      cert: data(x['client-certificate-data']) ?? read(x['client-certificate']),
      key: data(x['client-key-data']) ?? read(x['client-key']),
      token: str(x.token) ?? read(x.tokenFile)?.trim(),
      username: str(x.username),
      password: str(x.password),
    });
  }
  const currentUser = cfg.contexts?.find((c) => c.name === cfg['current-context'])?.context?.user;
  const lookup = (target: string): WebhookCredentials | undefined => {
    const exact = users.get(target);
    if (exact) return exact;
    const steps = target.split('.');
    for (let i = 1; i < steps.length; i++) {
      const wild = users.get(`*.${steps.slice(i).join('.')}`);
      if (wild) return wild;
    }
    return undefined;
  };
  return (target) => {
    const hit = lookup(target) ?? (target.endsWith(':443') ? lookup(target.slice(0, -4)) : undefined);
    if (hit) return hit;
    return users.get('*') ?? (currentUser !== undefined ? users.get(currentUser) : undefined);
  };
}
