// The README's example: an operator's mocha suite against a test server with its CRD.
import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from 'kube-apiserver-ts/testing';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
    }],
  },
};

describe('widget operator', function () {
  this.timeout(60_000);
  let server: TestServer;
  let objects: k8s.CustomObjectsApi;

  before(async () => {
    server = await startTestServer({ crds: [crd] });
    const kc = new k8s.KubeConfig();
    kc.loadFromString(server.kubeconfig);
    objects = kc.makeApiClient(k8s.CustomObjectsApi);
  });
  after(() => server?.stop());

  it('stores a Widget', async () => {
    await objects.createNamespacedCustomObject({
      group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets',
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } },
    });
    const w = await objects.getNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets', name: 'w1' });
    expect(w.spec.size).to.equal(3);
  });
});
