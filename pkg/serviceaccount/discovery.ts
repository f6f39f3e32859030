// Service-account issuer discovery (upstream's ServiceAccountIssuerDiscovery): an OIDC
// provider document at /.well-known/openid-configuration and the verification keys at
// /openid/v1/jwks, so that any OIDC client can check this server's tokens.
import type { KeyObject } from 'node:crypto';
import { algorithmFor, keyID } from './keys.js';

export const openIDConfigurationPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';

export interface OpenIDMetadata {
  issuer: string;
  jwks_uri: string;
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
}

export interface JSONWebKey {
  use: 'sig';
  kty: string;
  kid: string;
  crv?: string;
  alg: string;
  n?: string;
  e?: string;
  x?: string;
  y?: string;
}

/** Why the issuer cannot be published as an OIDC provider, or undefined when it can. */
export function issuerProblem(issuer: string): string | undefined {
  let u: URL;
  try {
    u = new URL(issuer);
  } catch {
    return `issuer URL must use https scheme, got: ${issuer}`;
  }
  if (u.protocol !== 'https:') return `issuer URL must use https scheme, got: ${issuer}`;
  if (u.search !== '') return `issuer URL may not include a query, got: ${issuer}`;
  if (u.hash !== '') return `issuer URL may not include a fragment, got: ${issuer}`;
  return undefined;
}

export function openIDMetadata(issuer: string, jwksURI: string, keys: KeyObject[]): OpenIDMetadata {
  return {
    issuer,
    jwks_uri: jwksURI,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(keys.map(algorithmFor))].sort(),
  };
}

/** The public keys as a JWK set, fields in upstream's order. */
export function publicJWKS(keys: KeyObject[]): { keys: JSONWebKey[] } {
  return {
    keys: keys.map((k) => {
      const jwk = k.export({ format: 'jwk' }) as Record<string, string>;
      const base = { use: 'sig' as const, kty: jwk['kty']!, kid: keyID(k) };
      return jwk['kty'] === 'EC'
        ? { ...base, crv: jwk['crv'], alg: algorithmFor(k), x: jwk['x'], y: jwk['y'] }
        : { ...base, alg: algorithmFor(k), n: jwk['n'], e: jwk['e'] };
    }),
  };
}
