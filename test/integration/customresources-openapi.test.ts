// OpenAPI for custom resources on two replicas: a CRD created through replica 0 is
// documented by replica 1 within a couple of seconds (in /openapi/v3's root with its hash,
// in its group-version document, in /openapi/v2), kubectl v1.28 explains its fields from
// the CRD's descriptions, a change of the schema is published, and the CRD's deletion
// takes it all away.
import { expect } from 'chai';
import { kubectl, request, startReplicas, until, type Cluster, type HttpResponse } from '../harness/index.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

// Documents are deep JSON; the assertions, not the types, check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

const crdBase = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const group = 'openapi.example.com';
const crdName = `widgets.${group}`;
const kindDef = 'com.example.openapi.v1.Widget';
const v3Key = `apis/${group}/v1`;

function widgetCRD(sizeDoc: string): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: crdName },
    spec: {
      group, scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{
        name: 'v1', served: true, storage: true, subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'Widget is a thing made for the OpenAPI test.',
            properties: {
              spec: {
                type: 'object',
                description: 'Spec holds the desired widget.',
                properties: {
                  size: { type: 'integer', description: sizeDoc },
                  label: { type: 'string', nullable: true, description: 'Label shown on the widget.' },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      }],
    },
  };
}

describe('custom resources in OpenAPI', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  const call = <T>(replica: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });


  /** The v3 group-version document as replica `i` lists it, or undefined while it does not. */
  async function v3Doc(i: number): Promise<Doc | undefined> {
    const root = await call<Doc>(i, 'GET', '/openapi/v3');
    expect(root.status).to.equal(200);
    const entry = root.body.paths[v3Key] as { serverRelativeURL: string } | undefined;
    if (!entry) return undefined;
    const doc = await call<Doc>(i, 'GET', entry.serverRelativeURL);
    // A deletion may land between the two reads.
    if (doc.status === 404) return undefined;
    expect(doc.status, doc.text).to.equal(200);
    expect(doc.headers['cache-control']).to.equal('public, immutable');
    return doc.body;
  }

  before(async () => { cluster = await startReplicas(2); });
  after(async () => { await cluster?.stop(); });

  it('documents a CRD created through replica 0 in /openapi/v3 on replica 1 within a couple of seconds of its establishment', async () => {
    const created = await call(0, 'POST', crdBase, widgetCRD('Size of the widget in centimetres.'));
    expect(created.status, created.text).to.equal(201);
    // Only an established CRD is documented, and Established is the elected establishing
    // controller's write, in its own time at CI's load (serving from creation once took
    // 1.2 s there): the couple of seconds count from that write.
    await until('Established', async () => {
      const crd = await call<KubeObject>(0, 'GET', `${crdBase}/${crdName}`);
      const conditions = (crd.body.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    }, 10_000);
    const t0 = Date.now();
    const doc = await until('listed in /openapi/v3 on replica 1', () => v3Doc(1), 5000);
    expect(Date.now() - t0).to.be.below(2000);

    expect(doc.info).to.deep.equal({ title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
    const widget = doc.components.schemas[kindDef];
    expect(widget.description).to.equal('Widget is a thing made for the OpenAPI test.');
    expect(widget['x-kubernetes-group-version-kind']).to.deep.equal([{ group, kind: 'Widget', version: 'v1' }]);
    expect(widget.properties.spec.properties.size).to.deep.equal({ type: 'integer', description: 'Size of the widget in centimetres.' });
    expect(widget.properties.spec.properties.label.nullable).to.equal(true);
    expect(widget.properties.metadata.allOf).to.deep.equal([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    expect(doc.components.schemas['com.example.openapi.v1.WidgetList'].properties.items.items)
      .to.deep.equal({ $ref: `#/components/schemas/${kindDef}` });
    expect(doc.components.schemas).to.have.property('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const item = doc.paths[`/apis/${group}/v1/namespaces/{namespace}/widgets/{name}`];
    expect(item.get.operationId).to.equal('readOpenapiExampleComV1NamespacedWidget');
    expect(doc.paths[`/apis/${group}/v1/namespaces/{namespace}/widgets/{name}/status`].patch.operationId)
      .to.equal('patchOpenapiExampleComV1NamespacedWidgetStatus');
  });

  it('documents it in /openapi/v2 on both replicas, stripped for Swagger 2.0', async () => {
    for (const i of [0, 1]) {
      const v2 = await call<Doc>(i, 'GET', '/openapi/v2', undefined, { Accept: 'application/json' });
      expect(v2.status).to.equal(200);
      const widget = v2.body.definitions[kindDef];
      expect(widget.properties.spec.properties.size.description).to.equal('Size of the widget in centimetres.');
      // Swagger 2.0 has no nullable: the field loses its type rather than refusing null.
      expect(widget.properties.spec.properties.label).to.deep.equal({ description: 'Label shown on the widget.' });
      expect(widget.properties.metadata.$ref).to.equal('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
      expect(v2.body.paths[`/apis/${group}/v1/widgets`].get.operationId).to.equal('listOpenapiExampleComV1WidgetForAllNamespaces');
    }
  });

  it('lets kubectl explain the custom kind and its fields from the CRD descriptions', async () => {
    const kind = await kubectl(['explain', `widgets.${group}`], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(kind.code, kind.stderr).to.equal(0);
    expect(kind.stdout).to.match(/KIND:\s+Widget/);
    expect(kind.stdout).to.match(/VERSION:\s+v1/);
    expect(kind.stdout).to.include('Widget is a thing made for the OpenAPI test.');
    expect(kind.stdout).to.include('Spec holds the desired widget.');
    expect(kind.stdout).to.match(/metadata\t<ObjectMeta>\n\s+Standard object's metadata\./);
    const spec = await kubectl(['explain', 'widgets.spec'], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(spec.code, spec.stderr).to.equal(0);
    expect(spec.stdout).to.match(/FIELD:\s+spec\s+<Object>/);
    expect(spec.stdout).to.include('Size of the widget in centimetres.');
    expect(spec.stdout).to.include('Label shown on the widget.');
    // The Swagger 2.0 reader (protobuf /openapi/v2) sees the same descriptions.
    const v2 = await kubectl(['explain', 'widgets.spec', '--output=plaintext-openapiv2'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(v2.code, v2.stderr).to.equal(0);
    expect(v2.stdout).to.include('Size of the widget in centimetres.');
    // A nullable field has no type in Swagger 2.0.
    expect(v2.stdout).to.match(/label\t<>\n\s+Label shown on the widget\./);
  });

  it('publishes a change of the schema on the other replica', async () => {
    const current = await call<KubeObject>(0, 'GET', `${crdBase}/${crdName}`);
    const updated = widgetCRD('Size in millimetres.');
    updated.metadata.resourceVersion = current.body.metadata.resourceVersion;
    const put = await call(0, 'PUT', `${crdBase}/${crdName}`, updated);
    expect(put.status, put.text).to.equal(200);
    await until('new description on replica 1', async () => {
      const doc = await v3Doc(1);
      return doc?.components.schemas[kindDef].properties.spec.properties.size.description === 'Size in millimetres.' ? true : undefined;
    }, 5000);
  });

  it('takes the documents away when the CRD is deleted', async () => {
    const del = await call(0, 'DELETE', `${crdBase}/${crdName}`);
    expect(del.status, del.text).to.equal(200);
    await until('gone from /openapi/v3 on replica 1', async () => ((await v3Doc(1)) === undefined ? true : undefined), 10_000);
    const gone = await call(1, 'GET', `/openapi/v3/${v3Key}`);
    expect(gone.status).to.equal(404);
    const v2 = await call<Doc>(1, 'GET', '/openapi/v2', undefined, { Accept: 'application/json' });
    expect(v2.body.definitions).to.not.have.property(kindDef);
    expect(Object.keys(v2.body.paths).some((p) => p.startsWith(`/apis/${group}/`))).to.equal(false);
    const explain = await kubectl(['explain', `widgets.${group}`], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(explain.code).to.not.equal(0);
    expect(explain.stdout).to.equal('');
    // kubectl's cached discovery may still map the name, and then the documents no longer have it.
    expect(explain.stderr).to.match(/couldn't find resource for "openapi\.example\.com\/v1, Resource=widgets"|doesn't have a resource type "widgets/);
  });
});
