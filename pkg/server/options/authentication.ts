// Upstream's "authentication" flag set (BuiltInAuthenticationOptions): client
// certificates, tokens, service accounts, OIDC, webhook, request headers.
import type { FlagSection, FlagValues } from '../flags.js';

export interface AuthenticationOptions {
  clientCAFile?: string;
  tokenAuthFile?: string;
  /** Unset: on unless a mode is AlwaysAllow, as upstream. */
  anonymousAuth?: boolean;
  serviceAccountIssuers: string[];
  serviceAccountKeyFiles: string[];
  /** --service-account-lookup (default true): tokens whose Secret or account is gone are refused. */
  serviceAccountLookup: boolean;
  serviceAccountMaxTokenExpirationSeconds: number;
  serviceAccountExtendTokenExpiration: boolean;
  serviceAccountJWKSURI?: string;
  apiAudiences: string[];
  enableBootstrapTokenAuth: boolean;
  oidcIssuerURL?: string;
  oidcClientID?: string;
  oidcCAFile?: string;
  oidcUsernameClaim: string;
  oidcUsernamePrefix?: string;
  oidcGroupsClaim?: string;
  oidcGroupsPrefix?: string;
  oidcRequiredClaims: Array<[string, string]>;
  oidcSigningAlgs: string[];
  authenticationTokenWebhookConfigFile?: string;
  authenticationTokenWebhookCacheTTLMs: number;
  authenticationTokenWebhookVersion: string;
  requestheaderUsernameHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  requestheaderClientCAFile?: string;
  requestheaderAllowedNames: string[];
}

export const authenticationSection: FlagSection<AuthenticationOptions> = {
  name: 'authentication',
  flags: [
    { name: 'anonymous-auth', type: 'bool', default: 'true', usage: 'Serve requests no authenticator claims as system:anonymous (off by default when a mode is AlwaysAllow).' },
    { name: 'api-audiences', type: 'strings', usage: 'Audiences service account tokens must be bound to; default: the --service-account-issuer URL.' },
    { name: 'authentication-token-webhook-cache-ttl', type: 'duration', default: '2m0s', usage: 'How long token webhook answers are cached.' },
    { name: 'authentication-token-webhook-config-file', type: 'string', usage: 'kubeconfig-formatted file naming the TokenReview webhook that authenticates bearer tokens.' },
    { name: 'authentication-token-webhook-version', type: 'string', default: 'v1beta1', usage: 'authentication.k8s.io version of the TokenReview sent to the webhook (v1 or v1beta1).' },
    { name: 'client-ca-file', type: 'string', usage: 'CA bundle: a client certificate it signed authenticates as its CommonName, groups from its Organization.' },
    { name: 'enable-bootstrap-token-auth', type: 'bool', usage: 'Authenticate bootstrap tokens (Secrets of type bootstrap.kubernetes.io/token in kube-system).' },
    { name: 'oidc-ca-file', type: 'string', usage: 'CA bundle of the OIDC issuer; default: the host\'s roots.' },
    { name: 'oidc-client-id', type: 'string', usage: 'OIDC client ID tokens must be issued for; required with --oidc-issuer-url.' },
    { name: 'oidc-groups-claim', type: 'string', usage: 'OIDC claim holding the user\'s groups (a string or an array of strings).' },
    { name: 'oidc-groups-prefix', type: 'string', usage: 'Prefix added to OIDC groups.' },
    { name: 'oidc-issuer-url', type: 'string', usage: 'https URL of the OIDC issuer; set, OIDC ID tokens authenticate.' },
    { name: 'oidc-required-claim', type: 'mapStringString', usage: 'key=value claims an OIDC token must carry; repeatable.' },
    { name: 'oidc-signing-algs', type: 'strings', default: 'RS256', usage: 'JOSE algorithms accepted for OIDC token signatures.' },
    { name: 'oidc-username-claim', type: 'string', default: 'sub', usage: 'OIDC claim holding the user name.' },
    { name: 'oidc-username-prefix', type: 'string', usage: 'Prefix added to OIDC user names; default: the issuer URL and #, except for the email claim; - for none.' },
    { name: 'requestheader-allowed-names', type: 'strings', usage: 'Common names a front proxy\'s client certificate may have; empty: any signed by the request-header CA.' },
    { name: 'requestheader-client-ca-file', type: 'string', usage: 'CA bundle that must sign a front proxy\'s client certificate before its identity headers are trusted.' },
    { name: 'requestheader-extra-headers-prefix', type: 'strings', usage: 'Header prefixes carrying a proxied user\'s extra attributes.' },
    { name: 'requestheader-group-headers', type: 'strings', usage: 'Headers carrying a proxied user\'s groups.' },
    { name: 'requestheader-username-headers', type: 'strings', usage: 'Headers carrying a proxied user\'s name.' },
    { name: 'service-account-extend-token-expiration', type: 'bool', default: 'true', usage: 'Issue projected tokens valid for a year when asked for the default hour, warning on use after the hour.' },
    { name: 'service-account-issuer', type: 'stringArray', usage: 'Issuer (iss) of service account tokens; the first issues, all are accepted; repeatable.' },
    { name: 'service-account-jwks-uri', type: 'string', usage: 'jwks_uri published in the OIDC discovery document instead of this server\'s.' },
    { name: 'service-account-key-file', type: 'stringArray', usage: 'PEM public (or private) keys that verify service account tokens; repeatable.' },
    { name: 'service-account-lookup', type: 'bool', default: 'true', usage: 'Refuse service account tokens whose Secret or ServiceAccount no longer exists.' },
    { name: 'service-account-max-token-expiration', type: 'duration', usage: 'Longest lifetime of a token the TokenRequest API issues.' },
    { name: 'token-auth-file', type: 'string', usage: 'CSV of static bearer tokens: token,user,uid[,"group1,group2"].' },
  ],
  read(f: FlagValues): AuthenticationOptions {
    return {
      clientCAFile: f.string('client-ca-file'),
      tokenAuthFile: f.string('token-auth-file'),
      anonymousAuth: f.has('anonymous-auth') ? f.bool('anonymous-auth') : undefined,
      serviceAccountIssuers: f.array('service-account-issuer'),
      serviceAccountKeyFiles: f.array('service-account-key-file'),
      serviceAccountLookup: f.bool('service-account-lookup'),
      serviceAccountMaxTokenExpirationSeconds: Math.floor(f.duration('service-account-max-token-expiration') / 1000),
      serviceAccountExtendTokenExpiration: f.bool('service-account-extend-token-expiration'),
      serviceAccountJWKSURI: f.string('service-account-jwks-uri'),
      apiAudiences: f.list('api-audiences'),
      enableBootstrapTokenAuth: f.bool('enable-bootstrap-token-auth'),
      oidcIssuerURL: f.string('oidc-issuer-url'),
      oidcClientID: f.string('oidc-client-id'),
      oidcCAFile: f.string('oidc-ca-file'),
      oidcUsernameClaim: f.string('oidc-username-claim')!,
      oidcUsernamePrefix: f.string('oidc-username-prefix'),
      oidcGroupsClaim: f.string('oidc-groups-claim'),
      oidcGroupsPrefix: f.string('oidc-groups-prefix'),
      oidcRequiredClaims: f.keyValues('oidc-required-claim'),
      oidcSigningAlgs: f.list('oidc-signing-algs'),
      authenticationTokenWebhookConfigFile: f.string('authentication-token-webhook-config-file'),
      authenticationTokenWebhookCacheTTLMs: f.duration('authentication-token-webhook-cache-ttl'),
      authenticationTokenWebhookVersion: f.string('authentication-token-webhook-version')!,
      requestheaderUsernameHeaders: f.list('requestheader-username-headers'),
      requestheaderGroupHeaders: f.list('requestheader-group-headers'),
      requestheaderExtraHeadersPrefix: f.list('requestheader-extra-headers-prefix'),
      requestheaderClientCAFile: f.string('requestheader-client-ca-file'),
      requestheaderAllowedNames: f.list('requestheader-allowed-names'),
    };
  },
};
