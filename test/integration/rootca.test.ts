// kube-root-ca.crt (SPEC 5.8): the elected replica publishes the cluster's root CA to
// every active namespace, and repairs edits and deletions.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, startReplicas, type Cluster } from '../harness/index.js';

describe('root CA publisher: kube-root-ca.crt in every namespace', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `rootca-${Date.now().toString(36)}`;
  const path = `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;

  before(async () => {
    cluster = await startReplicas(2);
  });
  after(async () => { await cluster?.stop(); });

  const get = () => request(`${cluster.urls[1]}${path}`, cluster.credentialsFor('admin'));
  const eventually = async <T>(fn: () => Promise<T | undefined>, what: string): Promise<T> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('publishes, reverts edits, and recreates after deletion', async () => {
    const creds = cluster.credentialsFor('admin');
    expect((await request(`${cluster.urls[0]}/api/v1/namespaces`, { ...creds, method: 'POST', body: { metadata: { name: ns } } })).status).to.equal(201);
    const published = await eventually(async () => {
      const r = await get();
      return r.status === 200 ? (r.body as { data: Record<string, string> }) : undefined;
    }, 'kube-root-ca.crt');
    expect(Object.keys(published.data)).to.deep.equal(['ca.crt']);
    const ca = published.data['ca.crt'];
    expect(ca).to.match(/^-----BEGIN CERTIFICATE-----/);
    // The published CA verifies the serving certificate clients see.
    const serving = new X509Certificate(readFileSync(cluster.pki.serving.certFile));
    expect(serving.verify(new X509Certificate(ca).publicKey)).to.equal(true);

    const edited = await request(`${cluster.urls[0]}${path}`, {
      ...creds, method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { 'ca.crt': 'tampered', extra: 'x' } }),
    });
    expect(edited.status).to.equal(200);
    await eventually(async () => {
      const r = await get();
      const data = (r.body as { data?: Record<string, string> }).data;
      return data && data['ca.crt'] === ca && Object.keys(data).length === 1 ? true : undefined;
    }, 'the edit to be reverted');

    expect((await request(`${cluster.urls[0]}${path}`, { ...creds, method: 'DELETE' })).status).to.equal(200);
    await eventually(async () => ((await get()).status === 200 ? true : undefined), 'recreation');
  });
});
