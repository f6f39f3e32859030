import { expect } from 'chai';
import type { Strategy } from '../../registry/generic/strategy.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { buildPaths, groupCamel, tagOf, type PathSpec } from './operations.js';

const strategy = {} as Strategy;
const crud: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function scheme(): ResourceScheme {
  const s = new ResourceScheme();
  const reg = (d: Omit<ResourceDef, 'strategy' | 'singular'>) => s.register({ ...d, singular: d.plural, strategy });
  reg({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, verbs: crud, subresources: [{ name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] }, { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] }] });
  reg({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], subresources: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }] });
  reg({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, verbs: crud, subresources: [{ name: 'token', kind: 'TokenRequest', verbs: ['create'] }] });
  reg({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true, verbs: crud, returnDeletedObject: true,
    subresources: [{ name: 'status', kind: 'PodDisruptionBudget', verbs: ['get'] }, { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get'] }] });
  reg({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true, verbs: crud, subresources: [{ name: 'scale', kind: 'Scale', verbs: ['get', 'patch', 'update'] }] });
  reg({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview', plural: 'tokenreviews', namespaced: false, verbs: ['create'], virtual: async (o) => o });
  reg({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true, verbs: crud });
  return s;
}

function find(paths: PathSpec[], path: string): PathSpec {
  const p = paths.find((x) => x.path === path);
  if (!p) throw new Error(`no path ${path}`);
  return p;
}

const ids = (p: PathSpec) => Object.fromEntries(p.ops.map((o) => [o.method, o.operationId]));
const names = (params: { name: string }[]) => params.map((x) => x.name);

describe('buildPaths', () => {
  const paths = buildPaths(scheme());

  it('names groups and tags as upstream does', () => {
    expect(groupCamel('')).to.equal('Core');
    expect(groupCamel('rbac.authorization.k8s.io')).to.equal('RbacAuthorization');
    expect(groupCamel('flowcontrol.apiserver.k8s.io')).to.equal('FlowcontrolApiserver');
    expect(tagOf('rbac.authorization.k8s.io', 'v1')).to.equal('rbacAuthorization_v1');
    expect(tagOf('', 'v1')).to.equal('core_v1');
    expect(tagOf('apps')).to.equal('apps');
  });

  it('emits collection, item, all-namespaces and watch paths with upstream operation ids', () => {
    expect(ids(find(paths, '/api/v1/namespaces/{namespace}/pods'))).to.deep.equal({
      get: 'listCoreV1NamespacedPod', post: 'createCoreV1NamespacedPod', delete: 'deleteCoreV1CollectionNamespacedPod',
    });
    expect(ids(find(paths, '/api/v1/namespaces/{namespace}/pods/{name}'))).to.deep.equal({
      get: 'readCoreV1NamespacedPod', put: 'replaceCoreV1NamespacedPod', patch: 'patchCoreV1NamespacedPod', delete: 'deleteCoreV1NamespacedPod',
    });
    expect(ids(find(paths, '/api/v1/pods'))).to.deep.equal({ get: 'listCoreV1PodForAllNamespaces' });
    expect(ids(find(paths, '/api/v1/watch/pods'))).to.deep.equal({ get: 'watchCoreV1PodListForAllNamespaces' });
    expect(ids(find(paths, '/api/v1/watch/namespaces/{namespace}/pods/{name}'))).to.deep.equal({ get: 'watchCoreV1NamespacedPod' });
    expect(ids(find(paths, '/api/v1/namespaces/{name}'))).to.deep.include({ get: 'readCoreV1Namespace' });
    expect(ids(find(paths, '/apis/apps/v1/namespaces/{namespace}/deployments'))).to.deep.include({ get: 'listAppsV1NamespacedDeployment' });
    expect(ids(find(paths, '/apis/authentication.k8s.io/v1/tokenreviews'))).to.deep.equal({ post: 'createAuthenticationV1TokenReview' });
  });

  it('documents subresources with the kind they accept, skipping streaming ones', () => {
    expect(ids(find(paths, '/api/v1/namespaces/{namespace}/pods/{name}/status'))).to.deep.equal({
      get: 'readCoreV1NamespacedPodStatus', patch: 'patchCoreV1NamespacedPodStatus', put: 'replaceCoreV1NamespacedPodStatus',
    });
    expect(ids(find(paths, '/api/v1/namespaces/{name}/finalize'))).to.deep.equal({ put: 'replaceCoreV1NamespaceFinalize' });
    const token = find(paths, '/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token').ops[0];
    expect(token.gvk).to.deep.equal({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
    const scale = find(paths, '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale').ops.find((o) => o.method === 'get');
    expect(scale?.responses[0].ref).to.equal('io.k8s.api.autoscaling.v1.Scale');
    expect(paths.some((p) => p.path.endsWith('/exec'))).to.equal(false);
    const declared = find(paths, '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}/scale').ops[0];
    expect(declared.gvk).to.deep.equal({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });

  it('skips kinds without a schema and adds discovery paths', () => {
    expect(paths.some((p) => p.path.includes('example.com/v1/'))).to.equal(false);
    expect(ids(find(paths, '/api/'))).to.deep.equal({ get: 'getCoreAPIVersions' });
    expect(ids(find(paths, '/apis/apps/'))).to.deep.equal({ get: 'getAppsAPIGroup' });
    expect(ids(find(paths, '/apis/apps/v1/'))).to.deep.equal({ get: 'getAppsV1APIResources' });
    expect(find(paths, '/apis/apps/v1/').docKey).to.equal('apis/apps/v1');
  });

  it('hoists the parameters every operation shares, never the body', () => {
    const coll = find(paths, '/api/v1/namespaces/{namespace}/pods');
    expect(names(coll.params)).to.deep.equal(['namespace', 'pretty']);
    const post = coll.ops.find((o) => o.method === 'post');
    expect(names(post?.params ?? [])).to.deep.equal(['body', 'dryRun', 'fieldManager', 'fieldValidation']);
    const allNs = find(paths, '/api/v1/pods');
    expect(allNs.ops[0].params).to.deep.equal([]);
    expect(names(allNs.params)).to.include.members(['watch', 'limit', 'pretty', 'resourceVersionMatch']);
    const finalize = find(paths, '/api/v1/namespaces/{name}/finalize');
    expect(names(finalize.params)).to.deep.equal(['dryRun', 'fieldManager', 'fieldValidation', 'name', 'pretty']);
    expect(names(finalize.ops[0].params)).to.deep.equal(['body']);
  });

  it('answers DELETE with the object for resources whose storage returns it', () => {
    const del = (p: string) => find(paths, p).ops.find((o) => o.method === 'delete')?.responses.map((r) => [r.code, r.ref]);
    expect(del('/api/v1/namespaces/{namespace}/pods/{name}')).to.deep.equal([['200', 'io.k8s.api.core.v1.Pod'], ['202', 'io.k8s.api.core.v1.Pod'], ['401', undefined]]);
    expect(del('/apis/apps/v1/namespaces/{namespace}/deployments/{name}')?.[0]).to.deep.equal(['200', 'io.k8s.apimachinery.pkg.apis.meta.v1.Status']);
    expect(del('/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}')?.[0]).to.deep.equal(['200', 'io.k8s.api.policy.v1.PodDisruptionBudget']);
  });
});
