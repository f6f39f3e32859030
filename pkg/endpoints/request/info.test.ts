import { expect } from 'chai';
import { parseRequestInfo } from './info.js';

const info = (method: string, url: string) => {
  const [path, qs] = url.split('?');
  return parseRequestInfo(method, path, new URLSearchParams(qs ?? ''));
};

describe('request info (SPEC 4.1 verb mapping)', () => {
  const cases: Array<[string, string, Partial<ReturnType<typeof info>>]> = [
    ['GET', '/api/v1/namespaces/ns/configmaps', { verb: 'list', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'configmaps', name: '' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=1', { verb: 'watch', resource: 'configmaps' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=false', { verb: 'list' }],
    ['GET', '/api/v1/namespaces/ns/configmaps/c1', { verb: 'get', name: 'c1' }],
    // Escaped segments are decoded; a malformed escape is kept as sent.
    ['GET', '/api/v1/namespaces/n%73/configmaps/c%3A1', { verb: 'get', namespace: 'ns', name: 'c:1' }],
    ['GET', '/api/v1/namespaces/ns/configmaps/c%zz', { verb: 'get', name: 'c%zz' }],
    ['GET', '/api/v1/namespaces/ns/configmaps/c1?watch=true', { verb: 'get', name: 'c1' }],
    ['HEAD', '/api/v1/namespaces/ns/configmaps/c1', { verb: 'get' }],
    ['GET', '/api/v1/watch/namespaces/ns/configmaps/c1', { verb: 'watch', name: 'c1', legacyWatchPrefix: true }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=1&fieldSelector=metadata.name%3Dc1', { verb: 'watch', name: 'c1' }],
    ['POST', '/api/v1/namespaces/ns/configmaps', { verb: 'create' }],
    ['PUT', '/api/v1/namespaces/ns/configmaps/c1', { verb: 'update' }],
    ['PATCH', '/api/v1/namespaces/ns/configmaps/c1', { verb: 'patch' }],
    ['DELETE', '/api/v1/namespaces/ns/configmaps/c1', { verb: 'delete' }],
    ['DELETE', '/api/v1/namespaces/ns/configmaps', { verb: 'deletecollection' }],
    ['GET', '/api/v1/namespaces/ns', { verb: 'get', resource: 'namespaces', name: 'ns', namespace: 'ns' }],
    ['PUT', '/api/v1/namespaces/ns/finalize', { verb: 'update', resource: 'namespaces', name: 'ns', subresource: 'finalize' }],
    ['GET', '/api/v1/namespaces', { verb: 'list', resource: 'namespaces', namespace: '' }],
    ['GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin', { verb: 'get', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'admin' }],
    ['GET', '/apis/rbac.authorization.k8s.io/v1/roles', { verb: 'list', namespace: '', resource: 'roles' }],
    ['POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', { verb: 'create', subresource: 'token', name: 'default' }],
    // Connect subresources take their verb from the HTTP method, as upstream 1.28 does.
    ['GET', '/api/v1/namespaces/ns/pods/p/log?follow=true', { verb: 'get', resource: 'pods', subresource: 'log', name: 'p' }],
    ['POST', '/api/v1/namespaces/ns/pods/p/exec?command=ls', { verb: 'create', subresource: 'exec', name: 'p' }],
    ['GET', '/api/v1/namespaces/ns/pods/p/exec?command=ls', { verb: 'get', subresource: 'exec' }],
    ['POST', '/api/v1/namespaces/ns/pods/p/portforward', { verb: 'create', subresource: 'portforward' }],
    ['GET', '/api/v1/nodes/n1/proxy/metrics/cadvisor', { verb: 'get', resource: 'nodes', name: 'n1', subresource: 'proxy', parts: ['metrics', 'cadvisor'] }],
    ['DELETE', '/api/v1/namespaces/ns/services/https:web:443/proxy/x', { verb: 'delete', resource: 'services', name: 'https:web:443', subresource: 'proxy', parts: ['x'] }],
    ['OPTIONS', '/api/v1/namespaces/ns/pods/p/proxy/', { verb: 'options', subresource: 'proxy' }],
  ];
  for (const [method, url, want] of cases) {
    it(`${method} ${url}`, () => {
      const got = info(method, url);
      expect(got.isResourceRequest).to.equal(true);
      expect(got).to.deep.include(want);
    });
  }

  it('treats discovery and other paths as non-resource requests with the lower-case method as verb', () => {
    for (const p of ['/api', '/api/', '/apis', '/apis/rbac.authorization.k8s.io', '/apis/rbac.authorization.k8s.io/v1', '/api/v1', '/healthz', '/version', '/openapi/v2']) {
      const got = info('GET', p);
      expect(got.isResourceRequest, p).to.equal(false);
      expect(got.verb).to.equal('get');
      expect(got.path).to.equal(p);
    }
    expect(info('POST', '/logs').verb).to.equal('post');
  });
});
