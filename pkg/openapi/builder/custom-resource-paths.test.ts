import { expect } from 'chai';
import type { Strategy } from '../../registry/generic/strategy.js';
import { allVerbs } from '../../runtime/scheme.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { OpenAPIDocuments } from '../documents.js';
import { schemeDefinitions } from './definition-source.js';
import { buildPaths, type PathSpec } from './operations.js';

const strategy = {} as Strategy;
const schema = { type: 'object', properties: { spec: { type: 'object', description: 'Desired state.', properties: { replicas: { type: 'integer' } } } } };

function gadgets(): ResourceDef {
  return {
    group: 'cr.example.com', version: 'v1', kind: 'Gadget', listKind: 'GadgetList', plural: 'gadgets', singular: 'gadget',
    namespaced: true, verbs: allVerbs, strategy,
    subresources: [
      { name: 'status', kind: 'Gadget', verbs: ['get', 'patch', 'update'] },
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], scale: { specReplicasPath: ['spec', 'replicas'], statusReplicasPath: ['status', 'replicas'] } },
    ],
    customResource: { openAPISchema: schema },
  };
}

function testScheme(): ResourceScheme {
  const s = new ResourceScheme();
  s.register({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true, verbs: allVerbs, strategy });
  s.replace(gadgets());
  s.replace({ group: 'cr.example.com', version: 'v1', kind: 'Thing', plural: 'things', singular: 'thing', namespaced: false, verbs: allVerbs, strategy, customResource: {} });
  return s;
}

function find(paths: PathSpec[], path: string): PathSpec {
  const p = paths.find((x) => x.path === path);
  if (!p) throw new Error(`no path ${path}`);
  return p;
}
const ids = (p: PathSpec) => Object.fromEntries(p.ops.map((o) => [o.method, o.operationId]));
const names = (params: { name: string }[]) => params.map((x) => x.name);

// Documents are deep JSON; the assertions, not the types, check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

describe('custom resource paths', () => {
  const scheme = testScheme();
  const paths = buildPaths(scheme, schemeDefinitions(scheme));
  const base = '/apis/cr.example.com/v1';

  it('documents the CRD builder operations with upstream operation ids, and no watch paths', () => {
    expect(ids(find(paths, `${base}/gadgets`))).to.deep.equal({ get: 'listCrExampleComV1GadgetForAllNamespaces' });
    expect(ids(find(paths, `${base}/namespaces/{namespace}/gadgets`))).to.deep.equal({
      get: 'listCrExampleComV1NamespacedGadget', post: 'createCrExampleComV1NamespacedGadget', delete: 'deleteCrExampleComV1CollectionNamespacedGadget',
    });
    expect(ids(find(paths, `${base}/namespaces/{namespace}/gadgets/{name}`))).to.deep.equal({
      get: 'readCrExampleComV1NamespacedGadget', put: 'replaceCrExampleComV1NamespacedGadget',
      delete: 'deleteCrExampleComV1NamespacedGadget', patch: 'patchCrExampleComV1NamespacedGadget',
    });
    expect(ids(find(paths, `${base}/namespaces/{namespace}/gadgets/{name}/status`))).to.deep.equal({
      get: 'readCrExampleComV1NamespacedGadgetStatus', put: 'replaceCrExampleComV1NamespacedGadgetStatus', patch: 'patchCrExampleComV1NamespacedGadgetStatus',
    });
    expect(ids(find(paths, `${base}/things/{name}`))).to.include({ get: 'readCrExampleComV1Thing' });
    expect(paths.some((p) => p.path.startsWith(`${base}/watch`))).to.equal(false);
    // Custom resources' discovery is not documented.
    expect(paths.some((p) => p.path === `${base}/` || p.path === '/apis/cr.example.com/')).to.equal(false);
  });

  it('shapes parameters, media types and responses as the CRD builder does', () => {
    const item = find(paths, `${base}/namespaces/{namespace}/gadgets/{name}`);
    expect(names(item.params)).to.deep.equal(['name', 'namespace', 'pretty']);
    const op = (m: string) => item.ops.find((o) => o.method === m)!;
    expect(names(op('get').params)).to.deep.equal(['resourceVersion']);
    expect(names(op('patch').params)).to.deep.equal(['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(op('patch').consumes).to.deep.equal(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(op('get').produces).to.deep.equal(['application/json', 'application/yaml']);
    expect(op('delete').responses.map((r) => [r.code, r.ref])).to.deep.equal([
      ['200', 'io.k8s.apimachinery.pkg.apis.meta.v1.Status'], ['202', 'io.k8s.apimachinery.pkg.apis.meta.v1.Status'], ['401', undefined],
    ]);
    const coll = find(paths, `${base}/namespaces/{namespace}/gadgets`);
    const dc = coll.ops.find((o) => o.method === 'delete')!;
    expect(names(dc.params)).to.include('labelSelector').and.not.include('body');
    const scale = find(paths, `${base}/namespaces/{namespace}/gadgets/{name}/scale`).ops.find((o) => o.method === 'get')!;
    expect(scale.responses[0].ref).to.equal('io.k8s.api.autoscaling.v1.Scale');
    expect(scale.gvk).to.deep.equal({ group: 'cr.example.com', version: 'v1', kind: 'Gadget' });
  });

  it('publishes the definitions in /openapi/v2 and in the group-version v3 document', () => {
    const docs = new OpenAPIDocuments(scheme, { title: 'Kubernetes', version: 'v1.28.0' });
    const v2 = JSON.parse(docs.v2JSON().data.toString()) as Doc;
    expect(v2.definitions['com.example.cr.v1.Gadget'].properties.spec.properties.replicas).to.deep.equal({ type: 'integer' });
    expect(v2.definitions['com.example.cr.v1.GadgetList'].properties.items.items).to.deep.equal({ $ref: '#/definitions/com.example.cr.v1.Gadget' });
    expect(v2.definitions).to.have.property('io.k8s.api.autoscaling.v1.Scale');
    expect(v2.definitions['com.example.cr.v1.Thing']).to.deep.equal({
      type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'cr.example.com', kind: 'Thing', version: 'v1' }],
    });
    expect(v2.info).to.deep.equal({ title: 'Kubernetes', version: 'v1.28.0' });
    expect(v2.paths[`${base}/namespaces/{namespace}/gadgets/{name}`].put.operationId).to.equal('replaceCrExampleComV1NamespacedGadget');

    const root = JSON.parse(docs.v3Root().data.toString()) as Doc;
    const url = root.paths['apis/cr.example.com/v1'].serverRelativeURL as string;
    expect(url).to.match(/^\/openapi\/v3\/apis\/cr\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const v3 = JSON.parse(docs.v3Doc('apis/cr.example.com/v1')!.data.toString()) as Doc;
    expect(v3.info).to.deep.equal({ title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
    expect(v3.components).to.not.have.property('securitySchemes');
    expect(v3.components.schemas['com.example.cr.v1.Gadget'].properties.spec.description).to.equal('Desired state.');
    // OpenAPI 3.0 ignores a $ref's siblings, so upstream wraps it to keep the field's description.
    expect(v3.components.schemas['com.example.cr.v1.Gadget'].properties.metadata.allOf)
      .to.deep.equal([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    expect(v3.components.schemas).to.include.keys('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
    expect(Object.keys(v3.paths).every((p) => p.startsWith(`${base}/`))).to.equal(true);
    // Built-in documents do not carry the custom definitions.
    const core = JSON.parse(docs.v3Doc('api/v1')!.data.toString()) as Doc;
    expect(core.components.schemas).to.not.have.property('com.example.cr.v1.Gadget');
  });
});
