// Builds the authenticator from kube-apiserver's flags (SPEC 5), in upstream's order:
// the authenticating proxy, client certificates, then bearer tokens (token file,
// service accounts, bootstrap tokens, OIDC, webhook); anonymous last. Also binds the
// authentication APIs that need it (TokenReview, serviceaccounts/token) and serves the
// service-account issuer discovery documents.
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type Koa from 'koa';
import { AnonymousAuthenticator } from '../authentication/anonymous/index.js';
import { APIAudiences, AudienceAgnosticToken } from '../authentication/audiences.js';
import { BearerTokenAuthenticator } from '../authentication/bearertoken/index.js';
import { BootstrapTokenAuthenticator } from '../authentication/bootstrap/index.js';
import type { Authenticator, TokenAuthenticator } from '../authentication/interfaces.js';
import { OIDCAuthenticator, resolveUsernamePrefix, validateOIDCOptions } from '../authentication/oidc/index.js';
import { RequestHeaderAuthenticator } from '../authentication/requestheader/index.js';
import {
  BoundTokenValidator, CachedGetter, JWTAuthenticator, LegacyTokenValidator, type ServiceAccountGetter,
} from '../authentication/serviceaccount/index.js';
import type { CachedSource } from '../authentication/serviceaccount/getter.js';
import { CachedTokenAuthenticator } from '../authentication/tokencache/index.js';
import { TokenFileAuthenticator } from '../authentication/tokenfile/index.js';
import { UnionAuthenticator } from '../authentication/union/index.js';
import { WebhookTokenAuthenticator, validateWebhookVersion } from '../authentication/webhook/index.js';
import { loadWebhookKubeconfig } from '../authentication/webhook/kubeconfig.js';
import { parseCABundle, X509Authenticator } from '../authentication/x509/index.js';
import { authenticationGroup } from '../registry/authentication/strategy.js';
import { tokenReviewCreate } from '../registry/authentication/tokenreviews/index.js';
import { tokenRequestCreate } from '../registry/core/serviceaccounts/token.js';
import { legacyIssuer } from '../serviceaccount/claims.js';
import { issuerProblem, jwksPath, openIDConfigurationPath, openIDMetadata, publicJWKS } from '../serviceaccount/discovery.js';
import { TokenGenerator } from '../serviceaccount/generator.js';
import { parsePublicKeys, readPrivateKey, readPublicKeys } from '../serviceaccount/keys.js';
import type { PathHandler } from './app.js';
import type { ServerDeps } from './deps.js';

/** --api-audiences, defaulting to the first --service-account-issuer as upstream. */
export function apiAudiences(d: ServerDeps): string[] {
  if (d.o.apiAudiences.length > 0) return d.o.apiAudiences;
  return d.o.serviceAccountIssuers.length > 0 ? [d.o.serviceAccountIssuers[0]!] : [];
}

const verificationKeyCache = new WeakMap<ServerDeps, KeyObject[]>();

/** --service-account-key-file keys; without the flag, the serving key when it is RSA or ECDSA. */
export function serviceAccountVerificationKeys(d: ServerDeps): KeyObject[] {
  const cached = verificationKeyCache.get(d);
  if (cached) return cached;
  let keys: KeyObject[] = [];
  if (d.o.serviceAccountKeyFiles.length > 0) keys = d.o.serviceAccountKeyFiles.flatMap((f) => readPublicKeys(f));
  else {
    try {
      keys = parsePublicKeys(d.servingCert.key);
    } catch {
      d.log.warn('No TLS key provided, service account token authentication disabled');
    }
  }
  verificationKeyCache.set(d, keys);
  return keys;
}

export async function buildAuthenticator(d: ServerDeps): Promise<Authenticator> {
  const { o, log } = d;
  const auds = apiAudiences(d);
  const members: Authenticator[] = [];

  if (o.requestheaderClientCAFile) {
    members.push(new RequestHeaderAuthenticator({
      usernameHeaders: o.requestheaderUsernameHeaders, groupHeaders: o.requestheaderGroupHeaders,
      extraHeaderPrefixes: o.requestheaderExtraHeadersPrefix, allowedNames: o.requestheaderAllowedNames,
      roots: parseCABundle(readFileSync(o.requestheaderClientCAFile, 'utf8')),
    }));
  }
  if (d.clientCAFile) members.push(new X509Authenticator(parseCABundle(readFileSync(d.clientCAFile, 'utf8'))));

  const tokens = buildTokenAuthenticators(d, auds);
  if (tokens.length > 0) members.push(new BearerTokenAuthenticator(tokens));

  // Upstream stomps anonymous to false whenever AlwaysAllow is among the modes.
  const alwaysAllow = o.authorizationModes.includes('AlwaysAllow');
  if (o.anonymousAuth === true && alwaysAllow) {
    log.warn('AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
  }
  const anonymous = (o.anonymousAuth ?? true) && !alwaysAllow;
  const authenticator = new APIAudiences(new UnionAuthenticator(members, anonymous ? new AnonymousAuthenticator() : undefined), auds);
  bindAuthenticationAPIs(d, authenticator, auds);
  return authenticator;
}

function buildTokenAuthenticators(d: ServerDeps, auds: string[]): TokenAuthenticator[] {
  const { o, log } = d;
  const tokens: TokenAuthenticator[] = [];
  if (o.tokenAuthFile) {
    const file = TokenFileAuthenticator.fromFile(o.tokenAuthFile);
    for (const w of file.warnings) log.warn(w);
    tokens.push(new AudienceAgnosticToken(file, auds));
  }
  const keys = serviceAccountVerificationKeys(d);
  if (keys.length > 0 || o.serviceAccountIssuers.length > 0) {
    const getter = serviceAccountGetter(d);
    if (keys.length > 0) {
      tokens.push(new JWTAuthenticator({
        name: 'serviceaccount-legacy', issuers: [legacyIssuer], keys, implicitAudiences: auds,
        validator: new LegacyTokenValidator(o.serviceAccountLookup, getter),
      }));
    }
    if (o.serviceAccountIssuers.length > 0) {
      tokens.push(new JWTAuthenticator({
        name: 'serviceaccount', issuers: o.serviceAccountIssuers, keys, implicitAudiences: auds,
        validator: new BoundTokenValidator(getter),
      }));
    }
  }
  if (o.enableBootstrapTokenAuth) {
    const secrets = d.informers.informerFor('', 'secrets');
    const bootstrap = new BootstrapTokenAuthenticator((ns, name) => secrets.get(ns, name), (why) => log.debug(why));
    tokens.push(new AudienceAgnosticToken(bootstrap, auds));
  }
  if (o.oidcIssuerURL || o.oidcClientID) tokens.push(new AudienceAgnosticToken(buildOIDC(d), auds));
  if (o.authenticationTokenWebhookConfigFile) {
    validateWebhookVersion(o.authenticationTokenWebhookVersion);
    const webhook = new WebhookTokenAuthenticator({
      connection: loadWebhookKubeconfig(o.authenticationTokenWebhookConfigFile),
      version: o.authenticationTokenWebhookVersion, implicitAudiences: auds,
    });
    const ttl = o.authenticationTokenWebhookCacheTTLMs;
    tokens.push(ttl > 0 ? new CachedTokenAuthenticator(webhook, ttl, ttl) : webhook);
  }
  return tokens;
}

function buildOIDC(d: ServerDeps): OIDCAuthenticator {
  const { o, log } = d;
  if (!o.oidcIssuerURL) throw new Error('oidc-client-id requires oidc-issuer-url');
  if (!o.oidcClientID) throw new Error('oidc-issuer-url requires oidc-client-id');
  validateOIDCOptions({ issuerURL: o.oidcIssuerURL, clientID: o.oidcClientID, usernameClaim: o.oidcUsernameClaim, signingAlgs: o.oidcSigningAlgs });
  const oidc = new OIDCAuthenticator({
    issuerURL: o.oidcIssuerURL,
    clientID: o.oidcClientID,
    ca: o.oidcCAFile ? readFileSync(o.oidcCAFile, 'utf8') : undefined,
    usernameClaim: o.oidcUsernameClaim,
    usernamePrefix: resolveUsernamePrefix(o.oidcIssuerURL, o.oidcUsernameClaim, o.oidcUsernamePrefix),
    groupsClaim: o.oidcGroupsClaim,
    groupsPrefix: o.oidcGroupsPrefix,
    requiredClaims: o.oidcRequiredClaims,
    signingAlgs: o.oidcSigningAlgs,
    onError: (message) => log.warn({ issuer: o.oidcIssuerURL }, message),
  });
  oidc.start();
  return oidc;
}

function serviceAccountGetter(d: ServerDeps): ServiceAccountGetter {
  const source = (plural: string): CachedSource => {
    const store = d.registry.store('', plural);
    return {
      informer: d.informers.informerFor('', plural),
      get: (ns, name) => (name ? store.get(ns, name) : Promise.reject(new Error('resource name may not be empty'))),
    };
  };
  const podsServed = d.scheme.resourceInGroup('', 'pods') !== undefined;
  return new CachedGetter({ serviceaccounts: source('serviceaccounts'), secrets: source('secrets'), pods: podsServed ? source('pods') : undefined });
}

/** TokenReview answers with this authenticator; serviceaccounts/token signs when a key and issuer are set. */
function bindAuthenticationAPIs(d: ServerDeps, authenticator: Authenticator, auds: string[]): void {
  const { o, scheme, registry } = d;
  if (scheme.resource(authenticationGroup, 'v1', 'tokenreviews')) {
    scheme.bindOperation(authenticationGroup, 'v1', 'tokenreviews', '', tokenReviewCreate(authenticator, auds));
  }
  if (!o.serviceAccountSigningKeyFile || o.serviceAccountIssuers.length === 0) return;
  const generator = new TokenGenerator(o.serviceAccountIssuers[0]!, readPrivateKey(o.serviceAccountSigningKeyFile));
  const get = (plural: string) => (ns: string, name: string) => registry.store('', plural).get(ns, name);
  scheme.bindOperation('', 'v1', 'serviceaccounts', 'token', tokenRequestCreate({
    generator, apiAudiences: auds,
    maxExpirationSeconds: o.serviceAccountMaxTokenExpirationSeconds,
    extendExpiration: o.serviceAccountExtendTokenExpiration,
    serviceAccount: get('serviceaccounts'), secret: get('secrets'),
    pod: scheme.resourceInGroup('', 'pods') ? get('pods') : undefined,
  }));
}

/**
 * /.well-known/openid-configuration and /openid/v1/jwks for the first issuer, when it
 * is an https URL (upstream skips them, with a warning, otherwise). Without
 * --service-account-jwks-uri the keys' URL is this server's, as the client reached it.
 */
export function serviceAccountIssuerDiscovery(d: ServerDeps): PathHandler[] {
  const issuer = d.o.serviceAccountIssuers[0];
  const keys = serviceAccountVerificationKeys(d);
  if (!issuer || keys.length === 0) return [];
  const problem = issuerProblem(issuer);
  if (problem) {
    d.log.warn(`Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: ${problem}`);
    return [];
  }
  const jwks = JSON.stringify(publicJWKS(keys));
  const serve = (ctx: Koa.Context, type: string, body: string): boolean => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    ctx.status = 200;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = type;
    ctx.body = body;
    return true;
  };
  return [async (ctx) => {
    if (ctx.path === openIDConfigurationPath) {
      const jwksURI = d.o.serviceAccountJWKSURI ?? `https://${ctx.host}${jwksPath}`;
      return serve(ctx, 'application/json', JSON.stringify(openIDMetadata(issuer, jwksURI, keys)));
    }
    if (ctx.path === jwksPath) return serve(ctx, 'application/jwk-set+json', jwks);
    return false;
  }];
}
