// How a replica reads an extension server's discovery: its aggregated document when it
// serves one, its legacy resource list otherwise; always as system:kube-aggregator with
// the proxy client certificate, verifying the serving certificate for <svc>.<ns>.svc.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchVersionDiscovery } from '../../pkg/aggregator/discovery-fetch.js';
import { serviceTransport } from '../../pkg/aggregator/transport.js';
import type { APIServiceSpec } from '../../pkg/aggregator/apiservice.js';
import { createFrontProxyPki, startExtensionServer, type ExtensionServer, type FrontProxyPki } from '../harness/index.js';

describe('aggregator discovery fetch', function () {
  this.timeout(30_000);
  let dir: string;
  let fp: FrontProxyPki;
  const servers: ExtensionServer[] = [];
  const spec = (ext: ExtensionServer, name = 'api'): APIServiceSpec => ({
    group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: 'ns', name, port: ext.port },
    caBundle: ext.caBundle, insecureSkipTLSVerify: false, groupPriorityMinimum: 1000, versionPriority: 15,
  });
  const client = () => ({ cert: fp.client.cert, key: fp.client.key });
  const expected = {
    version: 'v1alpha1', freshness: 'Current',
    resources: [{
      resource: 'flunders', responseKind: { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' },
      scope: 'Namespaced', singularResource: 'flunder', verbs: ['get', 'list', 'watch'], shortNames: ['fl'],
    }],
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregation-fetch-'));
    fp = await createFrontProxyPki(dir);
  });
  after(async () => {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const aggregatedDiscovery of [true, false]) {
    it(`reads the ${aggregatedDiscovery ? 'aggregated document' : 'legacy resource list'}`, async () => {
      const ext = await startExtensionServer({ service: 'api', namespace: 'ns', frontProxy: fp, aggregatedDiscovery });
      servers.push(ext);
      const got = await fetchVersionDiscovery(new URL(`https://localhost:${ext.port}`), serviceTransport(spec(ext), client()), 'wardle.example.com', 'v1alpha1');
      expect(got).to.deep.equal(expected);
      const paths = ext.requests.map((r) => r.path);
      expect(paths).to.deep.equal(aggregatedDiscovery ? ['/apis'] : ['/apis', '/apis/wardle.example.com/v1alpha1']);
      // The aggregated document is asked for as system:kube-aggregator, the legacy list as system:aggregator.
      expect(ext.requests.map((r) => r.user)).to.deep.equal(aggregatedDiscovery
        ? [{ name: 'system:kube-aggregator', groups: ['system:masters'] }]
        : [{ name: 'system:kube-aggregator', groups: ['system:masters'] }, { name: 'system:aggregator', groups: [] }]);
      for (const r of ext.requests) expect(r.clientCN).to.equal('front-proxy-client');
    });
  }

  it('refuses a serving certificate that is not for <service>.<namespace>.svc', async () => {
    const ext = servers[0]!;
    let err: Error | undefined;
    try {
      await fetchVersionDiscovery(new URL(`https://localhost:${ext.port}`), serviceTransport(spec(ext, 'other'), client()), 'wardle.example.com', 'v1alpha1');
    } catch (e) { err = e as Error; }
    expect(err?.message).to.match(/other\.ns\.svc/);
  });
});
