// --event-ttl: Events are written under an etcd lease and vanish after the TTL, in both
// groups that serve them; updates keep the lease; other objects never carry one.
import { expect } from 'chai';
import { request, startReplicas, testEtcdClient, type Cluster } from '../harness/index.js';

describe('--event-ttl: events expire through etcd leases', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = 'default';

  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--event-ttl=2s'] });
  });
  after(async () => { await cluster?.stop(); });

  const leaseOf = async (key: string): Promise<string | undefined> => {
    const client = await testEtcdClient();
    try {
      const res = await client.kv.range({ key: Buffer.from(key) });
      return res.kvs[0]?.lease;
    } finally {
      client.close();
    }
  };

  it('stores core and events.k8s.io events with a lease that expires them', async () => {
    const creds = cluster.credentialsFor('admin');
    const core = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/events`, {
      ...creds, method: 'POST',
      body: { metadata: { name: 'core-ev' }, involvedObject: { kind: 'ConfigMap', name: 'x', namespace: ns }, reason: 'Test', message: 'hello', type: 'Normal' },
    });
    expect(core.status, core.text).to.equal(201);
    const v1 = await request(`${cluster.urls[0]}/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
      ...creds, method: 'POST',
      body: {
        metadata: { name: 'v1-ev' }, eventTime: new Date().toISOString().replace(/Z$/, '000Z'), type: 'Normal', reason: 'Test', action: 'Testing',
        reportingController: 'example.com/test', reportingInstance: 'test-1', regarding: { kind: 'ConfigMap', name: 'x', namespace: ns }, note: 'hello',
      },
    });
    expect(v1.status, v1.text).to.equal(201);
    const cm = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps`, { ...creds, method: 'POST', body: { metadata: { name: 'keeps' } } });
    expect(cm.status).to.equal(201);

    const eventKey = (name: string) => `${cluster.etcdPrefix}/events/${ns}/${name}`;
    expect(Number(await leaseOf(eventKey('core-ev')))).to.be.greaterThan(0);
    expect(Number(await leaseOf(eventKey('v1-ev')))).to.be.greaterThan(0);
    expect(await leaseOf(`${cluster.etcdPrefix}/configmaps/${ns}/keeps`)).to.equal('0');

    // An update is a new put: it must carry a lease too, or the event would live forever.
    const patched = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/events/core-ev`, {
      ...creds, method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ message: 'again' }),
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(Number(await leaseOf(eventKey('core-ev')))).to.be.greaterThan(0);

    const deadline = Date.now() + 15_000;
    for (;;) {
      const a = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/events/core-ev`, creds);
      const b = await request(`${cluster.urls[0]}/apis/events.k8s.io/v1/namespaces/${ns}/events/v1-ev`, creds);
      if (a.status === 404 && b.status === 404) break;
      expect(Date.now(), 'events still present').to.be.below(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps/keeps`, creds)).status).to.equal(200);
  });
});
