// The JS test API (kube-apiserver-ts/testing): servers sharing one etcd under their own
// prefixes, eight at once, none seeing another's objects; CRDs from a directory or as
// objects, Established and served on return; stop() leaves no key and no file behind.
import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../pkg/testing/index.js';
import { adminClient } from '../../pkg/testing/client.js';
import { testEtcdClient, testEtcdEndpoint } from '../harness/index.js';

const crdFor = (group: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `things.${group}` },
  spec: {
    group, scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

describe('testing API: startTestServer', function () {
  this.timeout(300_000);
  const servers: TestServer[] = [];
  after(async () => { await Promise.all(servers.map((s) => s.stop())); });

  it('eight servers on one etcd in parallel, each seeing only its own objects and CRDs', async () => {
    const etcd = await testEtcdEndpoint();
    const exitListeners = process.listenerCount('exit');
    const started = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      // Eight starts at once on a shared 2-core machine: a generous start timeout.
      startTestServer({ etcd, crds: [crdFor(`s${i}.example.com`)], timeoutMs: 240_000 })));
    servers.push(...started);
    expect(new Set(started.map((s) => s.etcdPrefix)).size).to.equal(8);
    // One exit hook serves every server: a suite starting more than ten gets no MaxListenersExceededWarning.
    expect(process.listenerCount('exit')).to.equal(exitListeners);
    await Promise.all(started.map(async (s, i) => {
      const c = adminClient(s.kubeconfig);
      const cm = await c.call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'mine' }, data: { owner: String(i) } });
      expect(cm.status, JSON.stringify(cm.body)).to.equal(201);
      const thing = await c.call('POST', `/apis/s${i}.example.com/v1/namespaces/default/things`, { apiVersion: `s${i}.example.com/v1`, kind: 'Thing', metadata: { name: 't' } });
      expect(thing.status, JSON.stringify(thing.body)).to.equal(201);
    }));
    await Promise.all(started.map(async (s, i) => {
      const c = adminClient(s.kubeconfig);
      const list = await c.call('GET', '/api/v1/namespaces/default/configmaps?labelSelector=');
      const mine = list.body.items.filter((x: { metadata: { name: string } }) => x.metadata.name === 'mine');
      expect(mine.map((x: { data: { owner: string } }) => x.data.owner)).to.deep.equal([String(i)]);
      const crds = await c.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
      expect(crds.body.items.map((x: { metadata: { name: string } }) => x.metadata.name)).to.deep.equal([`things.s${i}.example.com`]);
      const other = await c.call('GET', `/apis/s${(i + 1) % 8}.example.com/v1/namespaces/default/things`);
      expect(other.status).to.equal(404);
    }));
  });

  it('installs CRDs from a directory and stop() removes its keys and files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crds-'));
    try {
      writeFileSync(join(dir, 'a.yaml'), `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.dir.example.com }
spec:
  group: dir.example.com
  scope: Cluster
  names: { plural: gadgets, singular: gadget, kind: Gadget }
  versions:
  - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: not-a-crd }
`);
      writeFileSync(join(dir, 'notes.txt'), 'ignored');
      const s = await startTestServer({ crds: [dir] });
      const c = adminClient(s.kubeconfig);
      // Served at once: no wait between Established and the first object.
      const g = await c.call('POST', '/apis/dir.example.com/v1/gadgets', { apiVersion: 'dir.example.com/v1', kind: 'Gadget', metadata: { name: 'g' } });
      expect(g.status, JSON.stringify(g.body)).to.equal(201);
      await s.stop();
      await s.stop();
      expect(existsSync(s.kubeconfigPath)).to.equal(false);
      const etcd = await testEtcdClient();
      try {
        expect(await etcd.getAll().prefix(`${s.etcdPrefix}/`).keys()).to.deep.equal([]);
      } finally {
        etcd.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
