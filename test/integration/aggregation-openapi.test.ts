// The aggregator's OpenAPI and availability metrics on two replicas with the test
// extension server (wardle): its flunders' paths and definitions are merged into
// /openapi/v2 (its differing ObjectMeta renamed, its path outside the group version left
// out), its group version's v3 document is listed in /openapi/v3 and served through both
// replicas, kubectl explain reads its schema; when its Service goes away the APIService
// becomes unavailable, drops out of the documents and the unavailable metrics move.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flunderDefinition, flunderSpecDescription } from '../harness/extension-openapi.js';
import {
  createFrontProxyPki, eventually as pollEventually, frontProxyArgs, kubectl, request, startExtensionServer, startReplicas,
  type Cluster, type ExtensionServer, type HttpResponse,
} from '../harness/index.js';

/** Extension servers' documents are refetched on events and every minute: a wider wait, polled less often. */
const eventually = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => pollEventually(what, probe, timeoutMs, 200);

/** The value of one sample of the Prometheus text, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('aggregator OpenAPI and metrics', function () {
  this.timeout(180_000);
  const ns = 'wardle-openapi';
  const name = 'v1alpha1.wardle.example.com';
  const key = 'apis/wardle.example.com/v1alpha1';
  const flundersPath = '/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders';
  let dir: string;
  let cluster: Cluster;
  let ext: ExtensionServer;
  const call = <T = any>(i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const create = async (path: string, body: unknown) => {
    const res = await call(0, 'POST', path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };
  const v2 = async (i: number) => (await call(i, 'GET', '/openapi/v2', undefined, { Accept: 'application/json' })).body;
  const v3Root = async (i: number) => (await call(i, 'GET', '/openapi/v3')).body;
  const metrics = async (i: number) => (await call(i, 'GET', '/metrics')).text;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregation-openapi-'));
    const fp = await createFrontProxyPki(dir);
    ext = await startExtensionServer({ service: 'wardle', namespace: ns, frontProxy: fp });
    cluster = await startReplicas(2, { extraArgs: frontProxyArgs(fp) });
    await create('/api/v1/namespaces', { metadata: { name: ns } });
    await create(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'wardle' }, spec: { type: 'ExternalName', externalName: 'localhost' } });
    await create('/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name },
      spec: {
        group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: ns, name: 'wardle', port: ext.port },
        caBundle: ext.caBundle, groupPriorityMinimum: 2000, versionPriority: 10,
      },
    });
  });
  after(async () => {
    await cluster?.stop();
    await ext?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('merges the extension\'s paths and definitions into /openapi/v2 on both replicas', async () => {
    for (const i of [0, 1]) {
      const doc = await eventually(`replica ${i} merges wardle`, async () => {
        const d = await v2(i);
        return d.paths?.[flundersPath] ? d : undefined;
      });
      expect(doc.info).to.deep.equal({ title: 'Kubernetes', version: 'unversioned' });
      expect(doc.paths[flundersPath].get.operationId).to.equal('listWardleExampleComV1alpha1NamespacedFlunder');
      expect(doc.paths[`${flundersPath}/{name}`].get['x-kubernetes-action']).to.equal('get');
      // Only the APIService's group version is taken: the extension's /version/ is not ours to publish.
      expect(doc.paths['/version/'].get.operationId).to.equal('getCodeVersion');
      expect(doc.definitions).to.not.have.property('wardle.Info');
      expect(doc.paths).to.have.property('/api/v1/namespaces/{namespace}/pods');
      const flunder = doc.definitions[flunderDefinition];
      expect(flunder['x-kubernetes-group-version-kind']).to.deep.equal([{ group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' }]);
      expect(doc.definitions['com.example.wardle.v1alpha1.FlunderSpec'].properties.reference.description).to.equal(flunderSpecDescription);
      // Its ObjectMeta differs from ours: ours keeps the name, theirs is renamed with its reference.
      expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].description).to.not.equal('The extension server\'s ObjectMeta.');
      expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2'].description).to.equal('The extension server\'s ObjectMeta.');
      expect(flunder.properties.metadata.$ref).to.equal('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2');
    }
    // Fetched as upstream's aggregator does: system:aggregator with no groups, JSON.
    const fetches = ext.requestsTo('/openapi/v2');
    expect(fetches.length).to.be.at.least(2);
    expect(fetches[0]!.user).to.deep.include({ name: 'system:aggregator', groups: [] });
    expect(fetches[0]!.headers.accept).to.equal('application/json');
    expect(fetches[0]!.clientCN).to.equal('front-proxy-client');
  });

  it('lists the extension\'s group-version document under /openapi/v3 and serves it through both replicas', async () => {
    for (const i of [0, 1]) {
      const root = await eventually(`replica ${i} lists ${key}`, async () => {
        const r = await v3Root(i);
        return r.paths?.[key] ? r : undefined;
      });
      const url: string = root.paths[key].serverRelativeURL;
      expect(url).to.match(/^\/openapi\/v3\/apis\/wardle\.example\.com\/v1alpha1\?hash=[0-9A-F]{128}$/);
      // Our own documents stay ours.
      expect(root.paths.version.serverRelativeURL).to.match(/^\/openapi\/v3\/version\?hash=/);
      expect(root.paths).to.have.property('api/v1');
      const before = ext.requestsTo(`/openapi/v3/${key}`).length;
      const doc = await call(i, 'GET', url);
      expect(doc.status, doc.text).to.equal(200);
      expect(doc.body.openapi).to.equal('3.0.0');
      expect(doc.body.components.schemas['com.example.wardle.v1alpha1.FlunderSpec'].properties.reference.description).to.equal(flunderSpecDescription);
      const seen = ext.requestsTo(`/openapi/v3/${key}`).slice(before);
      expect(seen).to.have.length(1);
      expect(seen[0]!.user?.name).to.equal('admin');
      expect(seen[0]!.query.hash).to.equal(url.split('hash=')[1]);
    }
  });

  it('kubectl explain flunders prints field descriptions from the extension\'s schema', async () => {
    const r = await kubectl(['explain', 'flunders.spec'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/GROUP:\s+wardle\.example\.com\n/);
    expect(r.stdout).to.match(/KIND:\s+Flunder\n/);
    expect(r.stdout).to.match(/VERSION:\s+v1alpha1\n/);
    expect(r.stdout).to.match(/FIELD:\s+spec\s+<FlunderSpec>/);
    expect(r.stdout).to.include(flunderSpecDescription);
    const kind = await kubectl(['explain', 'flunders'], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(kind.code, kind.stderr).to.equal(0);
    expect(kind.stdout).to.include('Flunder is an example type of the wardle extension server.');
    // The Swagger 2.0 reader (protobuf /openapi/v2) finds it in the merged document.
    const v2explain = await kubectl(['explain', 'flunders.spec', '--output=plaintext-openapiv2'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(v2explain.code, v2explain.stderr).to.equal(0);
    expect(v2explain.stdout).to.include(flunderSpecDescription);
  });

  it('reports the APIService as available, then counts it unavailable and drops it when its Service goes away', async () => {
    for (const i of [0, 1]) {
      expect(sample(await metrics(i), 'aggregator_unavailable_apiservice', `name="${name}"`)).to.equal(0);
      expect(sample(await metrics(i), 'aggregator_unavailable_apiservice', 'name="v1.apps"')).to.equal(0);
    }
    const res = await call(0, 'DELETE', `/api/v1/namespaces/${ns}/services/wardle`);
    expect(res.status).to.equal(200);
    for (const i of [0, 1]) {
      await eventually(`replica ${i} gauge at 1`, async () =>
        (sample(await metrics(i), 'aggregator_unavailable_apiservice', `name="${name}"`) === 1 ? true : undefined));
    }
    // The transition is counted where it was written: by the elected replica.
    const counts = await Promise.all([0, 1].map(async (i) =>
      sample(await metrics(i), 'aggregator_unavailable_apiservice_total', `name="${name}",reason="ServiceNotFound"`) ?? 0));
    expect(counts[0]! + counts[1]!).to.equal(1);
    const text = await metrics(0);
    expect(text).to.include('# HELP aggregator_unavailable_apiservice_total [ALPHA] Counter of APIServices which are marked as unavailable broken down by APIService name and reason.');
    expect(text).to.include('# TYPE aggregator_unavailable_apiservice gauge');
    // Unavailable services are dropped from both documents.
    for (const i of [0, 1]) {
      await eventually(`replica ${i} drops wardle from /openapi/v2`, async () => ((await v2(i)).paths[flundersPath] ? undefined : true));
      const root = await v3Root(i);
      expect(root.paths).to.not.have.property(key);
      expect((await call(i, 'GET', `/openapi/v3/${key}`)).status).to.equal(404);
    }
  });
});
