// Bugs the request fuzzer (test/fuzz) found, pinned down one by one.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type TlsCredentials } from '../harness/index.js';

describe('fuzz findings', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  let url: string;
  let admin: TlsCredentials;
  before(async () => {
    cluster = await startReplicas(1);
    url = cluster.urls[0]!;
    admin = cluster.credentialsFor('admin');
    const ns = await request(`${url}/api/v1/namespaces`, { ...admin, method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ff' } } });
    expect(ns.status).to.equal(201);
  });
  after(() => cluster?.stop());

  const cm = (name: string, data: Record<string, string> = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

  describe('a write whose answer cannot be rendered (406) is not made', () => {
    const bad = { Accept: 'text/html' };

    it('create and update', async () => {
      const created = await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', headers: bad, body: cm('neg-1') });
      expect(created.status).to.equal(406);
      expect(created.body).to.include({ kind: 'Status', reason: 'NotAcceptable' });
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/neg-1`, admin)).status).to.equal(404);

      expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', body: cm('neg-2') })).status).to.equal(201);
      const updated = await request(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, { ...admin, method: 'PUT', headers: bad, body: cm('neg-2', { k: 'changed' }) });
      expect(updated.status).to.equal(406);
      const patched = await request(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, {
        ...admin, method: 'PATCH', headers: { ...bad, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { k: 'patched' } }),
      });
      expect(patched.status).to.equal(406);
      const now = await request<{ data: Record<string, string> }>(`${url}/api/v1/namespaces/ff/configmaps/neg-2`, admin);
      expect(now.body.data).to.deep.equal({ k: 'v' });
    });

    it('delete and deletecollection', async () => {
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'POST', body: cm('neg-3') })).status).to.equal(201);
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/neg-3`, { ...admin, method: 'DELETE', headers: bad })).status).to.equal(406);
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps`, { ...admin, method: 'DELETE', headers: bad })).status).to.equal(406);
      expect((await request(`${url}/api/v1/namespaces/ff/configmaps/neg-3`, admin)).status).to.equal(200);
    });
  });

});
