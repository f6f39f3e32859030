import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { toJSONResourceList } from '../resources.js';
import { calculateUsage } from '../usage.js';
import { quotaMatches, scopeSelectorsOf } from '../quota.js';
import { parseResourceList } from '../resources.js';
import { parseObjectCountName } from './objectcount.js';
import { PodEvaluator } from './pods.js';
import { PersistentVolumeClaimEvaluator } from './pvcs.js';
import { EvaluatorRegistry } from './registry.js';
import { ServiceEvaluator } from './services.js';

const pods = new PodEvaluator();
const pod = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({ metadata: { name: 'p', namespace: 'n' }, spec, status });
const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>, extra: Record<string, unknown> = {}) => ({ name, resources: { requests, limits }, ...extra });

describe('quota evaluators', () => {
  it('charges a pod its requests, limits, extended resources and counts', () => {
    const p = pod({
      containers: [c('a', { cpu: '100m', memory: '64Mi', 'example.com/gpu': '1' }, { cpu: '200m', memory: '128Mi' }), c('b', { cpu: '400m', 'hugepages-2Mi': '4Mi' })],
      initContainers: [c('init', { cpu: '1' })],
    });
    expect(toJSONResourceList(pods.usage(p))).to.deep.equal({
      'count/pods': '1', pods: '1', cpu: '1', 'requests.cpu': '1', memory: '64Mi', 'requests.memory': '64Mi',
      'limits.cpu': '200m', 'limits.memory': '128Mi', 'requests.example.com/gpu': '1',
      'hugepages-2Mi': '4Mi', 'requests.hugepages-2Mi': '4Mi',
    });
  });

  it('counts sidecars and overhead like upstream PodRequests', () => {
    const p = pod({
      containers: [c('main', { cpu: '500m' }, { cpu: '1' })],
      initContainers: [c('side', { cpu: '100m' }, undefined, { restartPolicy: 'Always' }), c('init', { cpu: '500m' })],
      overhead: { cpu: '10m', memory: '1Mi' },
    });
    const u = toJSONResourceList(pods.usage(p));
    expect(u['requests.cpu']).to.equal('610m');
    expect(u['requests.memory']).to.equal('1Mi');
    expect(u['limits.cpu']).to.equal('1010m');
  });

  it('charges a terminal pod only count/pods', () => {
    expect(toJSONResourceList(pods.usage(pod({ containers: [c('a', { cpu: '1' })] }, { phase: 'Succeeded' })))).to.deep.equal({ 'count/pods': '1' });
    const deleting = pod({ containers: [c('a', { cpu: '1' })] });
    deleting.metadata.deletionTimestamp = '2020-01-01T00:00:00Z';
    deleting.metadata.deletionGracePeriodSeconds = 30;
    expect(toJSONResourceList(pods.usage(deleting))).to.deep.equal({ 'count/pods': '1' });
  });

  it('requires requests for constrained cpu/memory, naming containers', () => {
    const p = pod({ containers: [c('a', { cpu: '1' }), c('b')], initContainers: [c('i', { memory: '1Mi' })] });
    expect(pods.constraints(['requests.cpu', 'limits.memory', 'pods'], p)).to.equal('must specify limits.memory for: a,b,i; requests.cpu for: b,i');
    expect(pods.constraints(['pods', 'requests.ephemeral-storage'], p)).to.equal(undefined);
  });

  it('matches pod scopes', () => {
    const be = pod({ containers: [c('a')] });
    const burst = pod({ containers: [c('a', { cpu: '1' })], activeDeadlineSeconds: 10, priorityClassName: 'high' });
    const s = (scopeName: string, operator = 'Exists', values?: string[]) => ({ scopeName, operator: operator as 'Exists', values });
    expect([be, burst].map((p) => pods.matchesScope(s('BestEffort'), p))).to.deep.equal([true, false]);
    expect([be, burst].map((p) => pods.matchesScope(s('NotBestEffort'), p))).to.deep.equal([false, true]);
    expect([be, burst].map((p) => pods.matchesScope(s('Terminating'), p))).to.deep.equal([false, true]);
    expect([be, burst].map((p) => pods.matchesScope(s('NotTerminating'), p))).to.deep.equal([true, false]);
    expect([be, burst].map((p) => pods.matchesScope(s('PriorityClass', 'In', ['high', 'x']), p))).to.deep.equal([false, true]);
    expect([be, burst].map((p) => pods.matchesScope(s('PriorityClass', 'NotIn', ['high']), p))).to.deep.equal([true, false]);
    expect([be, burst].map((p) => pods.matchesScope(s('PriorityClass', 'Exists'), p))).to.deep.equal([false, true]);
    expect([be, burst].map((p) => pods.matchesScope(s('PriorityClass', 'DoesNotExist'), p))).to.deep.equal([true, false]);
    const cross = pod({ containers: [], affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { namespaceSelector: {} } }] } } });
    expect([be, cross].map((p) => pods.matchesScope(s('CrossNamespacePodAffinity'), p))).to.deep.equal([false, true]);
  });

  it('reads scopes and scopeSelector of a quota; object counts never match scoped quotas', () => {
    const quota: KubeObject = {
      metadata: { name: 'q' },
      spec: { scopes: ['BestEffort'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['low'] }] } },
    };
    const selectors = scopeSelectorsOf(quota);
    expect(selectors).to.deep.equal([{ scopeName: 'BestEffort', operator: 'Exists' }, { scopeName: 'PriorityClass', operator: 'In', values: ['low'] }]);
    const hard = parseResourceList({ pods: '1', 'count/configmaps': '1' });
    expect(quotaMatches({ hard, selectors }, pods, pod({ containers: [c('a')], priorityClassName: 'low' }))).to.equal(true);
    expect(quotaMatches({ hard, selectors }, pods, pod({ containers: [c('a')], priorityClassName: 'high' }))).to.equal(false);
    const cms = new EvaluatorRegistry().get('', 'configmaps');
    expect(quotaMatches({ hard, selectors: [] }, cms, { metadata: {} })).to.equal(true);
    expect(quotaMatches({ hard, selectors }, cms, { metadata: {} })).to.equal(false);
  });

  it('charges services by type and PVCs by class', () => {
    const svc = new ServiceEvaluator();
    const ports = [{ port: 1 }, { port: 2, nodePort: 30001 }];
    expect(toJSONResourceList(svc.usage({ metadata: {}, spec: { type: 'ClusterIP', ports } }))).to.deep.equal({ 'count/services': '1', services: '1' });
    expect(toJSONResourceList(svc.usage({ metadata: {}, spec: { type: 'NodePort', ports } }))).to.deep.equal({ 'count/services': '1', services: '1', 'services.nodeports': '2' });
    expect(toJSONResourceList(svc.usage({ metadata: {}, spec: { type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false } })))
      .to.deep.equal({ 'count/services': '1', services: '1', 'services.nodeports': '1', 'services.loadbalancers': '1' });
    const pvc = new PersistentVolumeClaimEvaluator();
    expect(toJSONResourceList(pvc.usage({ metadata: {}, spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } } }))).to.deep.equal({
      'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1', 'gold.storageclass.storage.k8s.io/requests.storage': '1Gi',
    });
    expect(pvc.matchingResources(['gold.storageclass.storage.k8s.io/requests.storage', 'requests.cpu', 'persistentvolumeclaims']))
      .to.deep.equal(['gold.storageclass.storage.k8s.io/requests.storage', 'persistentvolumeclaims']);
  });

  it('parses count/ names and calculates usage from objects', () => {
    expect(parseObjectCountName('count/deployments.apps')).to.deep.equal({ group: 'apps', resource: 'deployments' });
    expect(parseObjectCountName('count/widgets.example.com')).to.deep.equal({ group: 'example.com', resource: 'widgets' });
    expect(parseObjectCountName('count/pods')).to.deep.equal({ group: '', resource: 'pods' });
    expect(parseObjectCountName('pods')).to.equal(undefined);
    const objects = [pod({ containers: [c('a', { cpu: '250m' })] }), pod({ containers: [c('a')] }), pod({ containers: [c('a', { cpu: '1' })] }, { phase: 'Failed' })];
    const used = calculateUsage(['pods', 'requests.cpu', 'count/pods', 'secrets'], [], [{ evaluator: pods, objects }]);
    expect(toJSONResourceList(used)).to.deep.equal({ 'count/pods': '3', pods: '2', 'requests.cpu': '250m' });
    const bestEffort = calculateUsage(['pods'], [{ scopeName: 'BestEffort', operator: 'Exists' }], [{ evaluator: pods, objects }]);
    expect(toJSONResourceList(bestEffort)).to.deep.equal({ pods: '1' });
  });
});
