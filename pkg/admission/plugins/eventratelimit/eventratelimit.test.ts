import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { rejection } from '../../testing.js';
import { EventRateLimit, eventRateLimitConfig } from './index.js';
import { LRUCache, TokenBucket } from './buckets.js';

const apiVersion = 'eventratelimit.admission.k8s.io/v1alpha1';

function event(over: Partial<AdmissionAttributes> = {}, source = 'kubelet', involved = 'pod-a'): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Event', resource: 'events', subresource: '',
    namespace: 'team', name: 'e', user: { name: 'alice', groups: [] }, dryRun: false,
    object: { metadata: { name: 'e', namespace: 'team' }, source: { component: source, host: 'n1' },
      involvedObject: { kind: 'Pod', namespace: 'team', name: involved, uid: 'u1', apiVersion: 'v1' } },
    ...over,
  };
}

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
}

describe('EventRateLimit', () => {
  it('lets a burst through, then answers 429 with upstream message and no Retry-After', async () => {
    const c = clock();
    const p = new EventRateLimit(eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [{ type: 'Server', qps: 1, burst: 2 }] }), c.now);
    await p.validate(event());
    await p.validate(event());
    const err = await rejection(p.validate(event()));
    expect(err.code).to.equal(429);
    expect(err.reason).to.equal('TooManyRequests');
    expect(err.message).to.equal('Too many requests: limit reached on type Server for key ');
    expect(err.headers).to.deep.equal({});
    c.advance(1000);
    await p.validate(event());
    await rejection(p.validate(event()));
  });

  it('keys Namespace, User and SourceAndObject limits separately', async () => {
    const c = clock();
    const limits = (type: string) => eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [{ type, qps: 1, burst: 1 }] });
    const ns = new EventRateLimit(limits('Namespace'), c.now);
    await ns.validate(event());
    await ns.validate(event({ namespace: 'other' }));
    expect((await rejection(ns.validate(event()))).message).to.equal('Too many requests: limit reached on type Namespace for key team');
    const user = new EventRateLimit(limits('User'), c.now);
    await user.validate(event());
    await user.validate(event({ user: { name: 'bob', groups: [] } }));
    expect((await rejection(user.validate(event()))).message).to.equal('Too many requests: limit reached on type User for key alice');
    const so = new EventRateLimit(limits('SourceAndObject'), c.now);
    await so.validate(event());
    await so.validate(event({}, 'kubelet', 'pod-b'));
    expect((await rejection(so.validate(event()))).message).to.equal('Too many requests: limit reached on type SourceAndObject for key kubeletn1Podteampod-au1v1');
  });

  it('charges every limit and answers with the last refusal', async () => {
    const c = clock();
    const p = new EventRateLimit(eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [
      { type: 'Namespace', qps: 1, burst: 1 }, { type: 'User', qps: 1, burst: 1 },
    ] }), c.now);
    await p.validate(event());
    const err = await rejection(p.validate(event()));
    expect(err.message).to.equal('Too many requests: limit reached on type User for key alice');
    // The other namespace's bucket is full, but alice's was charged again and is empty.
    expect((await rejection(p.validate(event({ namespace: 'other' })))).message).to.equal('Too many requests: limit reached on type User for key alice');
  });

  it('evicts the least recently used bucket beyond cacheSize', async () => {
    const c = clock();
    const p = new EventRateLimit(eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [{ type: 'Namespace', qps: 1, burst: 1, cacheSize: 1 }] }), c.now);
    await p.validate(event({ namespace: 'a' }));
    await p.validate(event({ namespace: 'b' }));
    // a's empty bucket was evicted by b's: a starts full again.
    await p.validate(event({ namespace: 'a' }));
  });

  it('only counts core Event creates and updates', async () => {
    const c = clock();
    const p = new EventRateLimit(eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [{ type: 'Server', qps: 1, burst: 1 }] }), c.now);
    expect(p.handles('DELETE')).to.equal(false);
    await p.validate(event({ kind: 'ConfigMap', resource: 'configmaps' }));
    await p.validate(event({ group: 'events.k8s.io' }));
    await p.validate(event());
    await rejection(p.validate(event({ operation: 'UPDATE' })));
  });

  describe('configuration', () => {
    it('must name the kind and hold valid limits', () => {
      expect(() => eventRateLimitConfig(undefined)).to.throw('limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
      expect(() => eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [] })).to.throw('limits: Invalid value: []eventratelimit.Limit{}: must not be empty');
      expect(() => eventRateLimitConfig({ apiVersion: 'v1', kind: 'Configuration' })).to.throw('no kind "Configuration" is registered for version "v1"');
      expect(() => eventRateLimitConfig({ apiVersion, kind: 'Configuration', limits: [{ type: 'Pod', qps: 0, burst: -1, cacheSize: -1 }] }))
        .to.throw('[limits[0].type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject", '
          + 'limits[0].burst: Invalid value: -1: must be positive, limits[0].qps: Invalid value: 0: must be positive, '
          + 'limits[0].cacheSize: Invalid value: -1: must not be negative]');
    });
  });

  describe('buckets', () => {
    it('refill at qps up to burst', () => {
      const c = clock();
      const b = new TokenBucket(2, 3, c.now);
      expect([b.tryAccept(), b.tryAccept(), b.tryAccept(), b.tryAccept()]).to.deep.equal([true, true, true, false]);
      c.advance(500);
      expect([b.tryAccept(), b.tryAccept()]).to.deep.equal([true, false]);
      c.advance(60_000);
      expect([b.tryAccept(), b.tryAccept(), b.tryAccept(), b.tryAccept()]).to.deep.equal([true, true, true, false]);
    });

    it('LRU keeps the most recently used entries', () => {
      let n = 0;
      const lru = new LRUCache(2, () => ++n);
      expect([lru.get('a'), lru.get('b'), lru.get('a'), lru.get('c'), lru.get('a'), lru.get('b')]).to.deep.equal([1, 2, 1, 3, 1, 4]);
      expect(lru.length).to.equal(2);
    });
  });
});
