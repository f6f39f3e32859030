// EventRateLimit: core/v1 Event writes are charged against token buckets, one set per
// configured limit type (the whole server, each namespace, each user, each event source
// and involved object). A write that finds any of its buckets empty gets 429.
//
// The buckets live in this replica's memory, as they live in each kube-apiserver's
// memory upstream: with N replicas behind a load balancer the cluster-wide rate is up
// to N times the configured one, and a restart refills every bucket.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { obj, str } from '../../../apis/core/types.js';
import { StatusError } from '../../../runtime/errors.js';
import { LRUCache, TokenBucket, type Clock } from './buckets.js';
import type { Limit, LimitType } from './config.js';

export { eventRateLimitConfig } from './config.js';

const defaultCacheSize = 4096;

type KeyFunc = (a: AdmissionAttributes) => string;

const keyFuncs: Record<LimitType, KeyFunc> = {
  Server: () => '',
  Namespace: (a) => a.namespace,
  User: (a) => a.user?.name ?? '',
  SourceAndObject: (a) => {
    const ev = a.object;
    if (!ev) return '';
    const source = obj(ev.source);
    const involved = obj(ev.involvedObject);
    return [str(source?.component), str(source?.host), str(involved?.kind), str(involved?.namespace),
      str(involved?.name), str(involved?.uid), str(involved?.apiVersion)].join('');
  },
};

class LimitEnforcer {
  private readonly buckets: { get(key: string): TokenBucket };
  private readonly keyOf: KeyFunc;

  constructor(private readonly limit: Limit, now: Clock) {
    const make = () => new TokenBucket(limit.qps, limit.burst, now);
    if (limit.type === 'Server') {
      const single = make();
      this.buckets = { get: () => single };
    } else {
      this.buckets = new LRUCache(limit.cacheSize || defaultCacheSize, make);
    }
    this.keyOf = keyFuncs[limit.type];
  }

  /** The refusal for this request, if this limit's bucket for it is empty. */
  accept(a: AdmissionAttributes): StatusError | undefined {
    const key = this.keyOf(a);
    if (this.buckets.get(key).tryAccept()) return undefined;
    return new StatusError(429, 'TooManyRequests', `Too many requests: limit reached on type ${this.limit.type} for key ${key}`);
  }
}

export class EventRateLimit implements AdmissionPlugin {
  readonly name = 'EventRateLimit';
  private readonly enforcers: LimitEnforcer[];

  constructor(limits: Limit[], now: Clock = Date.now) {
    this.enforcers = limits.map((l) => new LimitEnforcer(l, now));
  }

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.kind !== 'Event') return;
    // Every limit is charged, even after one refused; the last refusal is the answer.
    let refusal: StatusError | undefined;
    for (const e of this.enforcers) refusal = e.accept(a) ?? refusal;
    if (refusal) throw refusal;
  }
}
