// Bootstrap token Secrets (SPEC 2.4, 5.5): `bootstrap-token-<id>` of type
// bootstrap.kubernetes.io/token in kube-system. Shared by the authenticator, the
// token cleaner and the bootstrap signer.
import type { KubeObject } from '../../runtime/object.js';
import { isPlainObject } from '../../runtime/object.js';

export const bootstrapTokenSecretType = 'bootstrap.kubernetes.io/token';
export const bootstrapTokenNamespace = 'kube-system';
export const bootstrapTokenSecretPrefix = 'bootstrap-token-';
export const bootstrapUserPrefix = 'system:bootstrap:';
export const bootstrapDefaultGroup = 'system:bootstrappers';

export const keys = {
  id: 'token-id',
  secret: 'token-secret',
  expiration: 'expiration',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
  extraGroups: 'auth-extra-groups',
} as const;

const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const groupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = tokenPattern.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

export function secretName(tokenId: string): string {
  return bootstrapTokenSecretPrefix + tokenId;
}

/** A data value decoded from base64 ("" when absent). */
export function secretData(secret: KubeObject, key: string): string {
  const data = isPlainObject(secret.data) ? secret.data : {};
  const v = data[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** The expiration time, undefined when none is set; NaN when it is not RFC 3339. */
export function expirationOf(secret: KubeObject): number | undefined {
  const raw = secretData(secret, keys.expiration);
  if (raw === '') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) return NaN;
  return Date.parse(raw);
}

/** Expired, or with an expiration that cannot be read (treated as expired, as upstream). */
export function hasExpired(secret: KubeObject, now = Date.now()): boolean {
  const exp = expirationOf(secret);
  if (exp === undefined) return false;
  return Number.isNaN(exp) || now > exp;
}

export function validateBootstrapGroupName(name: string): string | undefined {
  if (groupPattern.test(name)) return undefined;
  return `bootstrap group ${JSON.stringify(name)} is invalid (must match ${groupPattern.source})`;
}

/** system:bootstrappers plus the validated auth-extra-groups, sorted and deduplicated. */
export function groupsOf(secret: KubeObject): { groups: string[] } | { error: string } {
  const groups = new Set([bootstrapDefaultGroup]);
  const extra = secretData(secret, keys.extraGroups);
  if (extra !== '') {
    for (const g of extra.split(',')) {
      const problem = validateBootstrapGroupName(g);
      if (problem) return { error: problem };
      groups.add(g);
    }
  }
  return { groups: [...groups].sort() };
}
