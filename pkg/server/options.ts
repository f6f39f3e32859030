// kube-apiserver's flags -> validated options. Only flag names upstream uses.
import { storageMediaTypes, type StorageMediaType } from '../storage/etcd/codec.js';
import { parseServiceClusterIPRange, parseServiceNodePortRange } from '../registry/core/services/allocator/config.js';
import { isIP } from 'node:net';
import { FeatureGates } from '../features/gates.js';
import type { TlsOptions } from 'node:tls';
import { parseSNICertKey, parseTLSCipherSuites, parseTLSMinVersion, type SNICertKey } from './tls-options.js';
import { enabledAdmissionPlugins, isKnownAdmissionPlugin } from '../admission/ordered.js';
import { auditFlagSpecs, parseAuditOptions, type AuditOptions } from '../audit/options.js';
import { aggregatorFlagSpecs, parseAggregatorOptions, type AggregatorOptions } from '../aggregator/options.js';
import type { ClusterSigningOptions } from '../controller/certificates/options.js';
import { clusterSigningFlagSpecs, parseClusterSigning } from './cluster-signing.js';
import { parseBoolFlag, parseDurationFlag, parseFlags, parseIntFlag, type FlagSpec } from './flags.js';
import { levelForVerbosity, type LogFormat, type LogLevel } from '../endpoints/filters/logging.js';
import { defaultPreferredAddressTypes, type KubeletClientOptions } from '../kubelet/client.js';

export interface ServerOptions {
  etcdServers: string[];
  etcdPrefix: string;
  etcdCompactionIntervalMs: number;
  /** --storage-media-type: how built-in objects are written to etcd (reads accept all). */
  storageMediaType: StorageMediaType;
  /** --watch-cache: serve watches from one shared etcd watch per resource (default true). */
  watchCache: boolean;
  /** --default-watch-cache-size: events each resource's watch cache keeps for resuming watches. */
  defaultWatchCacheSize: number;
  /** --event-ttl: how long Events are kept (default 1h). */
  eventTTLSeconds: number;
  /**
   * --enable-priority-and-fairness (default true): keep the APF configuration objects in
   * place. Requests are not throttled either way.
   */
  enablePriorityAndFairness: boolean;
  /** --max-requests-inflight / --max-mutating-requests-inflight (upstream: 400 / 200). */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  securePort: number;
  bindAddress: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  certDir: string;
  clientCAFile?: string;
  tokenAuthFile?: string;
  authorizationModes: string[];
  /** --enable-admission-plugins / --disable-admission-plugins (names as upstream's). */
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  /** --admission-control-config-file: an AdmissionConfiguration naming each plugin's configuration. */
  admissionControlConfigFile?: string;
  /** --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds (DefaultTolerationSeconds). */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  authorizationPolicyFile?: string;
  authorizationWebhookConfigFile?: string;
  authorizationWebhookVersion: string;
  authorizationWebhookCacheAuthorizedTTLMs: number;
  authorizationWebhookCacheUnauthorizedTTLMs: number;
  anonymousAuth?: boolean;
  serviceAccountIssuers: string[];
  serviceAccountKeyFiles: string[];
  serviceAccountSigningKeyFile?: string;
  /** --service-account-lookup (default true): tokens whose Secret or account is gone are refused. */
  serviceAccountLookup: boolean;
  serviceAccountMaxTokenExpirationSeconds: number;
  serviceAccountExtendTokenExpiration: boolean;
  serviceAccountJWKSURI?: string;
  apiAudiences: string[];
  enableBootstrapTokenAuth: boolean;
  /** kube-controller-manager's --root-ca-file: the CA bundle published to pods (kube-root-ca.crt, token Secrets). */
  rootCAFile?: string;
  /** kube-controller-manager's --controllers: `*` (all on by default), `name`, `-name`. */
  controllers: string[];
  /** kube-controller-manager's --cluster-signing-* flags (csrsigning). */
  clusterSigning: ClusterSigningOptions;
  /** --audit-* flags. */
  audit: AuditOptions;
  /** Not upstream's: --csr-cleaner-durations shortens the CSR cleaner's timings (tests). */
  csrCleanerDurations?: string;
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
  /** --runtime-config key=value pairs (a missing value means true). */
  runtimeConfig: Record<string, string>;
  /** --service-cluster-ip-range: one CIDR, or two of different families; checked at parse time. */
  serviceClusterIPRange?: string;
  /** --service-node-port-range (default 30000-32767). */
  serviceNodePortRange?: string;
  /** --advertise-address: the IP this replica publishes in the `kubernetes` Endpoints (default: see advertise.ts). */
  advertiseAddress?: string;
  /** --endpoint-reconciler-type: how the `kubernetes` Endpoints follow the live replicas. */
  endpointReconcilerType: EndpointReconcilerType;
  /** --apiserver-count: replicas the master-count reconciler keeps (default 1). */
  apiserverCount: number;
  /** Not upstream's (upstream fixes 15 s): TTL of a replica's /masterleases key; tests shorten it. */
  endpointReconcilerLeaseTTLMs: number;
  /** Not upstream's (upstream fixes 10 s): how often a replica refreshes its lease and the `kubernetes` Service. */
  endpointReconcilerIntervalMs: number;
  featureGates: string;
  minRequestTimeoutSeconds: number;
  livezGracePeriodMs: number;
  shutdownDelayMs: number;
  /** --shutdown-send-retry-after: answer 429 + Retry-After after the delay instead of closing the listener. */
  shutdownSendRetryAfter: boolean;
  /** --shutdown-watch-termination-grace-period: how long watches may run on during shutdown. */
  shutdownWatchTerminationGracePeriodMs: number;
  /** --tls-min-version, --tls-cipher-suites, --tls-sni-cert-key in Node's terms. */
  tls: { minVersion: TlsOptions['minVersion']; ciphers?: string; sniCertKeys: SNICertKey[] };
  /** --show-hidden-metrics-for-version: the previous minor release, or unset. */
  showHiddenMetricsForVersion?: string;
  /** --request-timeout: the deadline of every request that is not long-running. */
  requestTimeoutMs: number;
  /** --max-request-body-bytes: upstream's 3 MiB unless set. */
  maxRequestBodyBytes: number;
  /** pino level from klog's -v: request lines (upstream's -v=3) are `debug`. */
  logLevel: LogLevel;
  /** --logging-format: text (upstream's default) or json. */
  loggingFormat: LogFormat;
  /** Not upstream's: where to write a system:masters kubeconfig for local use (make run). */
  writeAdminKubeconfig?: string;
  /** Not upstream's: data directory of the embedded etcd started when --etcd-servers is empty. */
  embeddedEtcdDataDir: string;
  /** --kubelet-*: how the server reaches kubelets for logs, exec, attach, port-forward and proxy. */
  kubelet: KubeletClientOptions;
  /** --proxy-client-cert-file, --proxy-client-key-file, --enable-aggregator-routing. */
  aggregator: AggregatorOptions;
  /** Accepted flags we do not act on yet (warned about at start). */
  ignoredFlags: string[];
}

const flagSpecs: Record<string, FlagSpec> = {
  'etcd-servers': { type: 'stringList' },
  'etcd-prefix': { type: 'string' },
  'etcd-compaction-interval': { type: 'duration' },
  'storage-media-type': { type: 'string' },
  'watch-cache': { type: 'bool' },
  'default-watch-cache-size': { type: 'int' },
  'event-ttl': { type: 'duration' },
  'enable-priority-and-fairness': { type: 'bool' },
  'max-requests-inflight': { type: 'int' },
  'max-mutating-requests-inflight': { type: 'int' },
  'secure-port': { type: 'int' },
  'bind-address': { type: 'string' },
  'tls-cert-file': { type: 'string' },
  'tls-private-key-file': { type: 'string' },
  'cert-dir': { type: 'string' },
  'client-ca-file': { type: 'string' },
  'token-auth-file': { type: 'string' },
  'authorization-mode': { type: 'stringList' },
  'enable-admission-plugins': { type: 'stringList' },
  'disable-admission-plugins': { type: 'stringList' },
  'admission-control-config-file': { type: 'string' },
  'authorization-policy-file': { type: 'string' },
  'authorization-webhook-config-file': { type: 'string' },
  'authorization-webhook-version': { type: 'string' },
  'authorization-webhook-cache-authorized-ttl': { type: 'duration' },
  'authorization-webhook-cache-unauthorized-ttl': { type: 'duration' },
  'anonymous-auth': { type: 'bool' },
  'default-not-ready-toleration-seconds': { type: 'int' },
  'default-unreachable-toleration-seconds': { type: 'int' },
  'service-account-issuer': { type: 'stringArray' },
  'service-account-key-file': { type: 'stringArray' },
  'service-account-signing-key-file': { type: 'string' },
  'service-account-lookup': { type: 'bool' },
  'service-account-max-token-expiration': { type: 'duration' },
  'service-account-extend-token-expiration': { type: 'bool' },
  'service-account-jwks-uri': { type: 'string' },
  'api-audiences': { type: 'stringList' },
  'enable-bootstrap-token-auth': { type: 'bool' },
  'root-ca-file': { type: 'string' },
  'controllers': { type: 'stringList' },
  ...clusterSigningFlagSpecs,
  ...auditFlagSpecs,
  ...aggregatorFlagSpecs,
  'csr-cleaner-durations': { type: 'string' },
  'oidc-issuer-url': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-ca-file': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-username-prefix': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-groups-prefix': { type: 'string' },
  'oidc-required-claim': { type: 'stringList' },
  'oidc-signing-algs': { type: 'stringList' },
  'authentication-token-webhook-config-file': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'duration' },
  'authentication-token-webhook-version': { type: 'string' },
  'requestheader-username-headers': { type: 'stringList' },
  'requestheader-group-headers': { type: 'stringList' },
  'requestheader-extra-headers-prefix': { type: 'stringList' },
  'requestheader-client-ca-file': { type: 'string' },
  'requestheader-allowed-names': { type: 'stringList' },
  'runtime-config': { type: 'stringList' },
  'service-cluster-ip-range': { type: 'string' },
  'service-node-port-range': { type: 'string' },
  'advertise-address': { type: 'string' },
  'endpoint-reconciler-type': { type: 'string' },
  'apiserver-count': { type: 'int' },
  'endpoint-reconciler-lease-ttl': { type: 'duration' },
  'endpoint-reconciler-interval': { type: 'duration' },
  'feature-gates': { type: 'string' },
  'min-request-timeout': { type: 'int' },
  'livez-grace-period': { type: 'duration' },
  'shutdown-delay-duration': { type: 'duration' },
  'shutdown-send-retry-after': { type: 'bool' },
  'shutdown-watch-termination-grace-period': { type: 'duration' },
  'request-timeout': { type: 'duration' },
  'show-hidden-metrics-for-version': { type: 'string' },
  'tls-min-version': { type: 'string' },
  'tls-cipher-suites': { type: 'string' },
  'tls-sni-cert-key': { type: 'string' },
  'max-request-body-bytes': { type: 'int' },
  'v': { type: 'int' },
  'logging-format': { type: 'string' },
  'write-admin-kubeconfig': { type: 'string' },
  'embedded-etcd-data-dir': { type: 'string' },
  'kubelet-preferred-address-types': { type: 'stringList' },
  'kubelet-timeout': { type: 'duration' },
  'kubelet-port': { type: 'int' },
  'kubelet-client-certificate': { type: 'string' },
  'kubelet-client-key': { type: 'string' },
  'kubelet-certificate-authority': { type: 'string' },
};

const knownModes = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
const implementedModes = knownModes;


export function parseOptions(argv: string[]): ServerOptions {
  const parsed = parseFlags(argv, flagSpecs);
  if (parsed.positional.length > 0) throw new Error(`unexpected arguments: ${parsed.positional.join(' ')}`);
  const one = (n: string): string | undefined => parsed.values.get(n)?.at(-1);
  const list = (n: string): string[] => (parsed.values.get(n) ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  const arr = (n: string): string[] => parsed.values.get(n) ?? [];

  const modes = list('authorization-mode');
  for (const m of modes) {
    if (!knownModes.includes(m)) throw new Error(`--authorization-mode: authorization mode "${m}" is not a valid mode`);
    if (!implementedModes.includes(m)) throw new Error(`--authorization-mode: mode "${m}" is not implemented yet by this server`);
  }
  for (const flag of ['enable-admission-plugins', 'disable-admission-plugins']) {
    for (const p of list(flag)) {
      if (!isKnownAdmissionPlugin(p)) throw new Error(`${flag} plugin ${JSON.stringify(p)} is unknown`);
    }
  }
  enabledAdmissionPlugins(list('enable-admission-plugins'), list('disable-admission-plugins'));
  validateAuthorizationFlags(modes, one('authorization-policy-file'), one('authorization-webhook-config-file'), one('authorization-webhook-version'));
  const port = one('secure-port');
  const securePort = port !== undefined ? parseIntFlag('secure-port', port) : 6443;
  if (securePort < 0 || securePort > 65535) throw new Error(`--secure-port ${securePort} must be between 0 and 65535, inclusive`);
  // Upstream's default: every interface. Tests and `make run` pass 127.0.0.1.
  const bindAddress = one('bind-address') ?? '0.0.0.0';
  const dur = (n: string, def: number) => { const v = one(n); return v !== undefined ? parseDurationFlag(n, v) : def; };
  const anon = one('anonymous-auth');
  const minReq = one('min-request-timeout');
  const tlsCert = one('tls-cert-file');
  const tlsKey = one('tls-private-key-file');
  if (Boolean(tlsCert) !== Boolean(tlsKey)) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  const v = one('v');
  const intOr = (n: string, def: number): number => { const x = one(n); return x !== undefined ? parseIntFlag(n, x) : def; };
  const bool = (n: string, def: boolean): boolean => { const b = one(n); return b !== undefined ? parseBoolFlag(n, b) : def; };
  /** pflag's mapStringString: k=v pairs, comma-separated or repeated. */
  const keyValues = (n: string, valueOptional = false): Array<[string, string]> => list(n).map((kv) => {
    const i = kv.indexOf('=');
    if (i < 0 && !valueOptional) throw new Error(`invalid argument "${kv}" for "--${n}" flag: ${kv} must be formatted as key=value`);
    return i < 0 ? [kv, ''] : [kv.slice(0, i), kv.slice(i + 1)];
  });
  return {
    etcdServers: list('etcd-servers'),
    etcdPrefix: one('etcd-prefix') ?? '/registry',
    etcdCompactionIntervalMs: dur('etcd-compaction-interval', 5 * 60_000),
    storageMediaType: storageMediaType(one('storage-media-type')),
    watchCache: bool('watch-cache', true),
    defaultWatchCacheSize: watchCacheSize(one('default-watch-cache-size')),
    eventTTLSeconds: Math.ceil(dur('event-ttl', 60 * 60_000) / 1000),
    enablePriorityAndFairness: bool('enable-priority-and-fairness', true),
    maxRequestsInflight: nonNegativeInt('max-requests-inflight', one('max-requests-inflight'), 400),
    maxMutatingRequestsInflight: nonNegativeInt('max-mutating-requests-inflight', one('max-mutating-requests-inflight'), 200),
    securePort,
    bindAddress,
    tlsCertFile: tlsCert,
    tlsPrivateKeyFile: tlsKey,
    certDir: one('cert-dir') ?? '/var/run/kubernetes',
    clientCAFile: one('client-ca-file'),
    tokenAuthFile: one('token-auth-file'),
    authorizationModes: modes.length > 0 ? modes : ['AlwaysAllow'],
    enableAdmissionPlugins: list('enable-admission-plugins'),
    disableAdmissionPlugins: list('disable-admission-plugins'),
    admissionControlConfigFile: one('admission-control-config-file'),
    defaultNotReadyTolerationSeconds: intOr('default-not-ready-toleration-seconds', 300),
    defaultUnreachableTolerationSeconds: intOr('default-unreachable-toleration-seconds', 300),
    authorizationPolicyFile: one('authorization-policy-file'),
    authorizationWebhookConfigFile: one('authorization-webhook-config-file'),
    authorizationWebhookVersion: one('authorization-webhook-version') ?? 'v1beta1',
    authorizationWebhookCacheAuthorizedTTLMs: dur('authorization-webhook-cache-authorized-ttl', 5 * 60_000),
    authorizationWebhookCacheUnauthorizedTTLMs: dur('authorization-webhook-cache-unauthorized-ttl', 30_000),
    anonymousAuth: anon !== undefined ? parseBoolFlag('anonymous-auth', anon) : undefined,
    serviceAccountIssuers: arr('service-account-issuer'),
    serviceAccountKeyFiles: arr('service-account-key-file'),
    serviceAccountSigningKeyFile: one('service-account-signing-key-file'),
    serviceAccountLookup: bool('service-account-lookup', true),
    serviceAccountMaxTokenExpirationSeconds: Math.floor(dur('service-account-max-token-expiration', 0) / 1000),
    serviceAccountExtendTokenExpiration: bool('service-account-extend-token-expiration', true),
    serviceAccountJWKSURI: one('service-account-jwks-uri'),
    apiAudiences: list('api-audiences'),
    enableBootstrapTokenAuth: bool('enable-bootstrap-token-auth', false),
    rootCAFile: one('root-ca-file'),
    controllers: parsed.values.has('controllers') ? list('controllers') : ['*'],
    clusterSigning: parseClusterSigning(one, dur),
    audit: parseAuditOptions({ one, dur, bool, int: (n, def) => { const x = one(n); return x !== undefined ? parseIntFlag(n, x) : def; } }),
    csrCleanerDurations: one('csr-cleaner-durations'),
    oidcIssuerURL: one('oidc-issuer-url'),
    oidcClientID: one('oidc-client-id'),
    oidcCAFile: one('oidc-ca-file'),
    oidcUsernameClaim: one('oidc-username-claim') ?? 'sub',
    oidcUsernamePrefix: one('oidc-username-prefix'),
    oidcGroupsClaim: one('oidc-groups-claim'),
    oidcGroupsPrefix: one('oidc-groups-prefix'),
    oidcRequiredClaims: keyValues('oidc-required-claim'),
    oidcSigningAlgs: list('oidc-signing-algs').length > 0 ? list('oidc-signing-algs') : ['RS256'],
    authenticationTokenWebhookConfigFile: one('authentication-token-webhook-config-file'),
    authenticationTokenWebhookCacheTTLMs: dur('authentication-token-webhook-cache-ttl', 2 * 60_000),
    authenticationTokenWebhookVersion: one('authentication-token-webhook-version') ?? 'v1beta1',
    requestheaderUsernameHeaders: list('requestheader-username-headers'),
    requestheaderGroupHeaders: list('requestheader-group-headers'),
    requestheaderExtraHeadersPrefix: list('requestheader-extra-headers-prefix'),
    requestheaderClientCAFile: one('requestheader-client-ca-file'),
    requestheaderAllowedNames: list('requestheader-allowed-names'),
    runtimeConfig: Object.fromEntries(keyValues('runtime-config', true)),
    serviceClusterIPRange: checked(one('service-cluster-ip-range'), parseServiceClusterIPRange),
    serviceNodePortRange: checked(one('service-node-port-range'), parseServiceNodePortRange),
    advertiseAddress: advertiseAddress(one('advertise-address')),
    endpointReconcilerType: endpointReconcilerType(one('endpoint-reconciler-type')),
    apiserverCount: apiserverCount(one('apiserver-count')),
    endpointReconcilerLeaseTTLMs: dur('endpoint-reconciler-lease-ttl', 15_000),
    endpointReconcilerIntervalMs: dur('endpoint-reconciler-interval', 10_000),
    featureGates: checkedFeatureGates((parsed.values.get('feature-gates') ?? []).join(',')),
    minRequestTimeoutSeconds: minReq !== undefined ? parseIntFlag('min-request-timeout', minReq) : 1800,
    livezGracePeriodMs: dur('livez-grace-period', 0),
    shutdownDelayMs: dur('shutdown-delay-duration', 0),
    shutdownSendRetryAfter: bool('shutdown-send-retry-after', false),
    shutdownWatchTerminationGracePeriodMs: dur('shutdown-watch-termination-grace-period', 0),
    requestTimeoutMs: dur('request-timeout', 60_000),
    showHiddenMetricsForVersion: showHiddenMetricsFor(one('show-hidden-metrics-for-version')),
    tls: {
      minVersion: parseTLSMinVersion(one('tls-min-version')),
      ciphers: parseTLSCipherSuites(list('tls-cipher-suites')),
      sniCertKeys: (parsed.values.get('tls-sni-cert-key') ?? []).map(parseSNICertKey),
    },
    maxRequestBodyBytes: maxBodyBytes(one('max-request-body-bytes')),
    logLevel: levelForVerbosity(v !== undefined ? parseIntFlag('v', v) : 0),
    loggingFormat: loggingFormat(one('logging-format')),
    writeAdminKubeconfig: one('write-admin-kubeconfig'),
    embeddedEtcdDataDir: one('embedded-etcd-data-dir') ?? '_output/etcd',
    kubelet: kubeletOptions(one, list),
    aggregator: parseAggregatorOptions(one, bool),
    ignoredFlags: parsed.unknown,
  };
}

/** Upstream's BuiltInAuthorizationOptions.Validate, with its messages. */
function validateAuthorizationFlags(modes: string[], policyFile?: string, webhookFile?: string, webhookVersion?: string): void {
  const errs: string[] = [];
  if (modes.includes('ABAC') && !policyFile) errs.push("authorization-mode ABAC's authorization policy file not passed");
  if (!modes.includes('ABAC') && policyFile) errs.push('cannot specify --authorization-policy-file without mode ABAC');
  if (modes.includes('Webhook') && !webhookFile) errs.push("authorization-mode Webhook's authorization config file not passed");
  if (!modes.includes('Webhook') && webhookFile) errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(modes).size !== modes.length) errs.push(`authorization-mode ${JSON.stringify(modes).replace(/,/g, ' ')} has mode specified more than once`);
  if (webhookVersion !== undefined && webhookVersion !== 'v1' && webhookVersion !== 'v1beta1') {
    errs.push(`--authorization-webhook-version: invalid version "${webhookVersion}": must be v1 or v1beta1`);
  }
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
}

/** A flag value its parser accepts (the parser throws upstream's message otherwise). */
function checked(v: string | undefined, parse: (v: string | undefined) => unknown): string | undefined {
  parse(v);
  return v;
}

function storageMediaType(v: string | undefined): StorageMediaType {
  if (v === undefined || v === '') return 'application/vnd.kubernetes.protobuf';
  const t = storageMediaTypes.find((m) => m === v);
  if (!t) throw new Error(`--storage-media-type: unsupported value "${v}": supported values: ${storageMediaTypes.map((m) => `"${m}"`).join(', ')}`);
  return t;
}

/**
 * Upstream's default is 100 events, with caches that grow under load; ours do not grow,
 * so the default keeps more. 0 turns the cache off, as upstream.
 */
function watchCacheSize(v: string | undefined): number {
  if (v === undefined) return 1024;
  const n = parseIntFlag('default-watch-cache-size', v);
  if (n < 0) throw new Error(`--default-watch-cache-size: must be 0 or more, got ${n}`);
  return n;
}

/** --logging-format: upstream's component-base accepts text (its default) and json. */
function loggingFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new Error(`format: Unsupported value: ${JSON.stringify(value)}: supported values: "json", "text"`);
}

import type { EndpointReconcilerType } from '../controller/kubernetesservice/index.js';
export type { EndpointReconcilerType };
const endpointReconcilerTypes: EndpointReconcilerType[] = ['master-count', 'lease', 'none'];

function endpointReconcilerType(v: string | undefined): EndpointReconcilerType {
  if (v === undefined || v === '') return 'lease';
  const t = endpointReconcilerTypes.find((x) => x === v);
  // Upstream exits at start with this message for an unknown type.
  if (!t) throw new Error(`Reconciler not implemented: ${v}`);
  return t;
}

/** pflag's IP flag: an address, no brackets or zone. */
function advertiseAddress(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (isIP(v) === 0) throw new Error(`invalid argument "${v}" for "--advertise-address" flag: failed to parse IP: "${v}"`);
  return v;
}

function apiserverCount(v: string | undefined): number {
  if (v === undefined) return 1;
  const n = parseIntFlag('apiserver-count', v);
  if (n <= 0) throw new Error(`--apiserver-count should be a positive number, but value '${n}' provided`);
  return n;
}

const nodeAddressTypes = ['Hostname', 'ExternalIP', 'InternalIP', 'ExternalDNS', 'InternalDNS'];

/** Upstream's KubeletConfig flags: a client certificate and key come together; types must be known. */
function kubeletOptions(one: (n: string) => string | undefined, list: (n: string) => string[]): KubeletClientOptions {
  const types = list('kubelet-preferred-address-types');
  for (const t of types) {
    if (!nodeAddressTypes.includes(t)) throw new Error(`--kubelet-preferred-address-types: unknown address type "${t}"`);
  }
  const timeout = one('kubelet-timeout');
  const port = one('kubelet-port');
  return {
    preferredAddressTypes: types.length > 0 ? types : defaultPreferredAddressTypes,
    timeoutMs: timeout !== undefined ? parseDurationFlag('kubelet-timeout', timeout) : 5000,
    port: port !== undefined ? parseIntFlag('kubelet-port', port) : 10250,
    clientCertificateFile: one('kubelet-client-certificate'),
    clientKeyFile: one('kubelet-client-key'),
    certificateAuthorityFile: one('kubelet-certificate-authority'),
  };
}

function nonNegativeInt(flag: string, v: string | undefined, def: number): number {
  const n = v !== undefined ? parseIntFlag(flag, v) : def;
  if (n < 0) throw new Error(`--${flag} can not be negative value`);
  return n;
}

/** Upstream's MaxRequestBodyBytes: 3 MiB by default, 0 for no limit, negative refused. */
function maxBodyBytes(v: string | undefined): number {
  if (v === undefined) return 3 * 1024 * 1024;
  const n = parseIntFlag('max-request-body-bytes', v);
  if (n < 0) throw new Error('--max-request-body-bytes can not be negative value');
  return n === 0 ? Number.POSITIVE_INFINITY : n;
}

/** Refused as pflag refuses a bad value: the whole flag value quoted, then the gate's error. */
function checkedFeatureGates(spec: string): string {
  try {
    new FeatureGates().set(spec);
  } catch (err) {
    throw new Error(`invalid argument "${spec}" for "--feature-gates" flag: ${(err as Error).message}`);
  }
  return spec;
}

/** Only the release before this one (v1.28) may be named, as upstream validates it. */
function showHiddenMetricsFor(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (v !== '1.27') throw new Error("--show-hidden-metrics-for-version must be omitted or have the value '1.27'. Only the previous minor version is allowed");
  return v;
}
