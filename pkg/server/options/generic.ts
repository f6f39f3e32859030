// Upstream's "generic" flag set (ServerRunOptions): request limits, timeouts, shutdown
// timing, feature gates.
import { isIP } from 'node:net';
import { FeatureGates } from '../../features/gates.js';
import type { FlagSection, FlagValues } from '../flags.js';

export interface GenericOptions {
  /** --advertise-address: the IP this replica publishes in the `kubernetes` Endpoints (default: see advertise.ts). */
  advertiseAddress?: string;
  /**
   * --enable-priority-and-fairness (default true): keep the APF configuration objects in
   * place. Requests are not throttled either way.
   */
  enablePriorityAndFairness: boolean;
  /** --max-requests-inflight / --max-mutating-requests-inflight (upstream: 400 / 200). */
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds (DefaultTolerationSeconds). */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  featureGates: string;
  minRequestTimeoutSeconds: number;
  /** --request-timeout: the deadline of every request that is not long-running. */
  requestTimeoutMs: number;
  livezGracePeriodMs: number;
  shutdownDelayMs: number;
  /** --shutdown-send-retry-after: answer 429 + Retry-After after the delay instead of closing the listener. */
  shutdownSendRetryAfter: boolean;
  /** --shutdown-watch-termination-grace-period: how long watches may run on during shutdown. */
  shutdownWatchTerminationGracePeriodMs: number;
  /** --goaway-chance: 0 (off) to 0.02. */
  goawayChance: number;
}

export const genericSection: FlagSection<GenericOptions> = {
  name: 'generic',
  flags: [
    { name: 'advertise-address', type: 'ip', usage: 'IP address published to the cluster as this apiserver\'s address; defaults to --bind-address or the default interface.' },
    { name: 'cloud-provider-gce-l7lb-src-cidrs', type: 'cidrs', default: '130.211.0.0/22,35.191.0.0/16', usage: 'CIDRs opened in the GCE firewall for L7 load balancer traffic and health checks.', notImplemented: true },
    { name: 'cors-allowed-origins', type: 'strings', usage: 'Origins (regular expressions) allowed by CORS; empty disables CORS.', notImplemented: true },
    { name: 'default-not-ready-toleration-seconds', type: 'int', default: '300', usage: 'tolerationSeconds of the notReady:NoExecute toleration added to pods that have none.' },
    { name: 'default-unreachable-toleration-seconds', type: 'int', default: '300', usage: 'tolerationSeconds of the unreachable:NoExecute toleration added to pods that have none.' },
    { name: 'enable-priority-and-fairness', type: 'bool', default: 'true', usage: 'Serve the API Priority and Fairness configuration objects (requests are not throttled by them here).' },
    { name: 'external-hostname', type: 'string', usage: 'Hostname used in externalized URLs (OpenID discovery...).', notImplemented: true },
    { name: 'feature-gates', type: 'mapStringBool', usage: 'Comma-separated Name=true|false pairs switching alpha/beta features (upstream v1.28 gate names).' },
    { name: 'goaway-chance', type: 'float', default: '0', usage: 'Fraction of HTTP/2 requests answered with GOAWAY so clients spread over replicas; 0 (off) to .02.' },
    { name: 'livez-grace-period', type: 'duration', default: '0s', usage: 'Time after start during which /livez treats unfinished post-start hooks as healthy.' },
    { name: 'max-mutating-requests-inflight', type: 'int', default: '200', usage: 'Maximum mutating requests in flight before further ones are refused; 0 for no limit.' },
    { name: 'max-requests-inflight', type: 'int', default: '400', usage: 'Maximum non-mutating requests in flight before further ones are refused; 0 for no limit.' },
    { name: 'min-request-timeout', type: 'int', default: '1800', usage: 'Minimum seconds a watch stays open; each watch picks a random timeout between 1x and 2x this.' },
    { name: 'request-timeout', type: 'duration', default: '1m0s', usage: 'Deadline of requests that are not long-running (watch, exec, proxy...).' },
    { name: 'shutdown-delay-duration', type: 'duration', default: '0s', usage: 'After a stop signal, keep serving this long with /readyz failing before shutting down.' },
    { name: 'shutdown-send-retry-after', type: 'bool', usage: 'During shutdown, answer new requests 429 with Retry-After instead of closing the listener.' },
    { name: 'shutdown-watch-termination-grace-period', type: 'duration', default: '0s', usage: 'How long open watches may keep running once shutdown begins.' },
    { name: 'strict-transport-security-directives', type: 'strings', usage: 'HSTS directives, comma separated (max-age=31536000,includeSubDomains,preload); empty: no HSTS header.', notImplemented: true },
  ],
  read(f: FlagValues): GenericOptions {
    return {
      advertiseAddress: advertiseAddress(f.string('advertise-address')),
      enablePriorityAndFairness: f.bool('enable-priority-and-fairness'),
      maxRequestsInflight: nonNegative(f, 'max-requests-inflight'),
      maxMutatingRequestsInflight: nonNegative(f, 'max-mutating-requests-inflight'),
      defaultNotReadyTolerationSeconds: f.int('default-not-ready-toleration-seconds'),
      defaultUnreachableTolerationSeconds: f.int('default-unreachable-toleration-seconds'),
      featureGates: checkedFeatureGates(f.array('feature-gates').join(',')),
      minRequestTimeoutSeconds: f.int('min-request-timeout'),
      requestTimeoutMs: f.duration('request-timeout'),
      livezGracePeriodMs: f.duration('livez-grace-period'),
      shutdownDelayMs: f.duration('shutdown-delay-duration'),
      shutdownSendRetryAfter: f.bool('shutdown-send-retry-after'),
      shutdownWatchTerminationGracePeriodMs: f.duration('shutdown-watch-termination-grace-period'),
      goawayChance: goawayChance(f),
    };
  },
};

function goawayChance(f: FlagValues): number {
  const chance = f.float('goaway-chance');
  if (chance < 0 || chance > 0.02) throw new Error('--goaway-chance can not be less than 0 or greater than 0.02');
  return chance;
}

export function nonNegative(f: FlagValues, flag: string): number {
  const n = f.int(flag);
  if (n < 0) throw new Error(`--${flag} can not be negative value`);
  return n;
}

/** pflag's IP flag: an address, no brackets or zone. */
function advertiseAddress(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (isIP(v) === 0) throw new Error(`invalid argument "${v}" for "--advertise-address" flag: failed to parse IP: "${v}"`);
  return v;
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
