// The claims of service-account tokens, as upstream writes them: bound tokens (the
// TokenRequest API) carry a `kubernetes.io` object; legacy Secret tokens flat keys.
import type { KubeObject } from '../runtime/object.js';
import { makeUsername } from './names.js';

export const legacyIssuer = 'kubernetes/serviceaccount';

export interface ObjectRef { name: string; uid: string }

export interface BoundPrivateClaims {
  namespace: string;
  serviceaccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  warnafter?: number;
}

export interface BoundClaims {
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  sub: string;
  'kubernetes.io': BoundPrivateClaims;
}

export const legacyClaimKeys = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUID: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

export interface BoundClaimsInput {
  serviceAccount: KubeObject;
  pod?: KubeObject;
  secret?: KubeObject;
  expirationSeconds: number;
  /** Seconds after which a still-valid token is reported stale (extended pod tokens). */
  warnAfterSeconds?: number;
  audiences: string[];
  /** Seconds since the epoch. */
  now: number;
}

const refOf = (o: KubeObject): ObjectRef => ({ name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' });

export function boundClaims(i: BoundClaimsInput): BoundClaims {
  const sa = i.serviceAccount.metadata;
  const priv: BoundPrivateClaims = { namespace: sa.namespace ?? '', serviceaccount: refOf(i.serviceAccount) };
  if (i.pod) priv.pod = refOf(i.pod);
  else if (i.secret) priv.secret = refOf(i.secret);
  if (i.warnAfterSeconds) priv.warnafter = i.now + i.warnAfterSeconds;
  return {
    aud: i.audiences,
    exp: i.now + i.expirationSeconds,
    iat: i.now,
    nbf: i.now,
    sub: makeUsername(sa.namespace ?? '', sa.name ?? ''),
    'kubernetes.io': priv,
  };
}

export function legacyClaims(serviceAccount: KubeObject, secret: KubeObject): Record<string, string> {
  const sa = serviceAccount.metadata;
  return {
    [legacyClaimKeys.namespace]: sa.namespace ?? '',
    [legacyClaimKeys.secretName]: secret.metadata.name ?? '',
    [legacyClaimKeys.serviceAccountName]: sa.name ?? '',
    [legacyClaimKeys.serviceAccountUID]: sa.uid ?? '',
    sub: makeUsername(sa.namespace ?? '', sa.name ?? ''),
  };
}
