import { expect } from 'chai';
import { BrokenCircuitError } from 'cockatiel';
import { GRPCUnavailableError, GRPCResourceExhastedError } from 'etcd3';
import { memberBreakerSettings, memberFaultHandling } from './member-breaker.js';
import { createEtcdClient } from './client.js';
import { freePort } from '../../util/net/ports.js';

const quiet = { warn: () => undefined, info: () => undefined };
const unavailable = () => Promise.reject(new GRPCUnavailableError('etcdserver: request timed out'));
const ok = () => Promise.resolve('ok');
const outcome = (p: Promise<unknown>) => p.then((v) => v, (e: Error) => e);

describe('pkg/storage/etcd/member-breaker', () => {
  it('one member: no burst of errors makes the client refuse the next call', async () => {
    const policy = memberFaultHandling(['http://127.0.0.1:2379']).host!('127.0.0.1:2379');
    for (let i = 0; i < memberBreakerSettings.failures * 5; i++) expect(await outcome(policy.execute(unavailable))).to.be.instanceOf(GRPCUnavailableError);
    expect(await policy.execute(ok)).to.equal('ok');
  });

  it('several members: an unavailable member is skipped, a busy one is not, the last one open is still tried', async () => {
    const fh = memberFaultHandling(['http://a:2379', 'http://b:2379', 'http://c:2379']);
    const [a, b, c] = ['a:2379', 'b:2379', 'c:2379'].map((h) => fh.host!(h));
    // Too many requests is a busy member, not a down one.
    for (let i = 0; i < memberBreakerSettings.failures * 3; i++) await outcome(b!.execute(() => Promise.reject(new GRPCResourceExhastedError('etcdserver: too many requests'))));
    expect(await b!.execute(ok)).to.equal('ok');
    for (let i = 0; i < memberBreakerSettings.failures; i++) await outcome(a!.execute(unavailable));
    expect(await outcome(a!.execute(ok))).to.be.instanceOf(BrokenCircuitError);
    expect(await c!.execute(ok)).to.equal('ok');
    for (const m of [b!, c!]) for (let i = 0; i < memberBreakerSettings.failures; i++) await outcome(m.execute(unavailable));
    // Every breaker open: each member is tried rather than every call refused.
    expect(await a!.execute(ok)).to.equal('ok');
    expect(await c!.execute(ok)).to.equal('ok');
  });

  it('a client of one unreachable member keeps trying it: refused connections, never an open breaker', async () => {
    const port = await freePort();
    const { client } = createEtcdClient({ endpoints: [`http://127.0.0.1:${port}`], tls: {} }, quiet);
    try {
      for (let i = 0; i < memberBreakerSettings.failures * 3; i++) {
        const err = await outcome(client.get('k').string()) as Error;
        expect(err).to.be.instanceOf(Error);
        expect(err.message).to.not.match(/circuit breaker/i);
      }
    } finally {
      client.close();
    }
  });
});
