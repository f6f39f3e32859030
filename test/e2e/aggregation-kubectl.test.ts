// The aggregation layer driven by the real kubectl v1.28 through two replicas: an
// APIService and ExternalName Service applied as YAML through replica 0, kubectl wait
// for Available, `kubectl api-resources` on replica 1 listing the extension server's
// flunders (from aggregated discovery), and `kubectl get --raw` reaching the extension
// server through both replicas.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFrontProxyPki, frontProxyArgs, kubectlOn, startExtensionServer, startReplicas, type Cluster, type ExtensionServer,
} from '../harness/index.js';

describe('e2e kubectl: aggregated APIs', function () {
  this.timeout(180_000);
  const ns = 'wardle';
  let dir: string;
  let cluster: Cluster;
  let ext: ExtensionServer;
  const { k, ok } = kubectlOn(() => cluster);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregation-e2e-'));
    const fp = await createFrontProxyPki(dir);
    ext = await startExtensionServer({ service: 'api', namespace: ns, frontProxy: fp });
    ext.addFlunder('default', 'my-flunder');
    cluster = await startReplicas(2, { extraArgs: frontProxyArgs(fp) });
  });
  after(async () => {
    await cluster?.stop();
    await ext?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('registers the APIService, lists flunders in api-resources and reaches them with get --raw on both replicas', async () => {
    await ok(['apply', '-f', '-'], `apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
---
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: ${ns}
spec:
  type: ExternalName
  externalName: localhost
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1alpha1.wardle.example.com
spec:
  group: wardle.example.com
  version: v1alpha1
  groupPriorityMinimum: 1000
  versionPriority: 15
  caBundle: ${ext.caBundle}
  service:
    namespace: ${ns}
    name: api
    port: ${ext.port}
`);
    await ok(['wait', '--for=condition=Available', '--timeout=30s', 'apiservice/v1alpha1.wardle.example.com'], undefined, 1);
    const table = await ok(['get', 'apiservice', 'v1alpha1.wardle.example.com'], undefined, 1);
    expect(table).to.match(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE\n/);
    expect(table).to.match(new RegExp(`v1alpha1\\.wardle\\.example\\.com\\s+${ns}/api\\s+True\\s+`));

    // Replica 1 fetches the extension server's discovery once it sees the APIService Available.
    let resources = '';
    for (const deadline = Date.now() + 5000; ;) {
      const r = await k(['api-resources', '--api-group=wardle.example.com'], undefined, 1);
      resources = r.stdout;
      if ((r.code === 0 && resources.includes('flunders')) || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(resources.trim().split('\n').map((l) => l.trim().split(/\s+/))).to.deep.equal([
      ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'],
      ['flunders', 'fl', 'wardle.example.com/v1alpha1', 'true', 'Flunder'],
    ]);
    const all = await ok(['api-resources', '-o', 'name'], undefined, 0);
    expect(all.split('\n')).to.include('flunders.wardle.example.com');

    for (const replica of [0, 1]) {
      const before = ext.requestsTo('/apis/wardle.example.com/v1alpha1/namespaces/default/flunders').length;
      const raw = await ok(['get', '--raw', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders'], undefined, replica);
      const list = JSON.parse(raw) as { kind: string; items: Array<{ metadata: { name: string } }> };
      expect(list.kind).to.equal('FlunderList');
      expect(list.items.map((f) => f.metadata.name)).to.deep.equal(['my-flunder']);
      const seen = ext.requestsTo('/apis/wardle.example.com/v1alpha1/namespaces/default/flunders').slice(before);
      expect(seen.map((r) => r.user?.name)).to.deep.equal(['admin']);
    }
  });

  it('reports a missing extension service through kubectl', async () => {
    await ok(['delete', 'service', '-n', ns, 'api']);
    await ok(['wait', '--for=condition=Available=false', '--timeout=30s', 'apiservice/v1alpha1.wardle.example.com'], undefined, 1);
    const table = await ok(['get', 'apiservice', 'v1alpha1.wardle.example.com'], undefined, 1);
    expect(table).to.match(new RegExp(`v1alpha1\\.wardle\\.example\\.com\\s+${ns}/api\\s+False \\(ServiceNotFound\\)\\s+`));
    const r = await k(['get', '--raw', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders'], undefined, 0);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('Error from server (ServiceUnavailable): the server is currently unable to handle the request');
  });
});
