import { expect } from 'chai';
import type { QuotaView } from '../../../quota/quota.js';
import { toJSONResourceList, type ResourceList } from '../../../quota/resources.js';
import { StatusError, errors } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import { ResourceQuota, parseQuotaConfiguration } from './index.js';
import type { QuotaAccess } from './evaluator.js';

/** An in-memory quota store with the compare-and-swap the real one has; it yields between read and write. */
class MemQuotas implements QuotaAccess {
  rv = 1;
  writes = 0;
  constructor(public quotas: KubeObject[]) {}
  async list(): Promise<KubeObject[]> {
    await new Promise((r) => setImmediate(r));
    return structuredClone(this.quotas);
  }
  fresh(): Promise<KubeObject[]> {
    return this.list();
  }
  async updateUsed(q: QuotaView, used: ResourceList): Promise<void> {
    await new Promise((r) => setImmediate(r));
    const cur = this.quotas.find((x) => x.metadata.name === q.name);
    if (!cur || cur.metadata.resourceVersion !== q.resourceVersion) throw errors.conflict({ group: '', resource: 'resourcequotas' }, q.name, 'modified');
    (cur.status as Record<string, unknown>).used = toJSONResourceList(used);
    cur.metadata.resourceVersion = String(++this.rv);
    this.writes++;
  }
  used(name: string) {
    return (this.quotas.find((x) => x.metadata.name === name)!.status as { used: Record<string, string> }).used;
  }
}

const quota = (name: string, hard: Record<string, string>, used: Record<string, string>, spec: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name, namespace: 'ns', resourceVersion: '1' }, spec: { hard, ...spec }, status: { hard, used },
});

const attrs = (resource: string, object: KubeObject, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', group: '', version: 'v1', kind: '', resource, subresource: '', namespace: 'ns', name: object.metadata.name ?? '',
  object, user: { name: 'u', groups: [] }, dryRun: false, ...extra,
});

const podWith = (name: string, requests?: Record<string, string>, spec: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name }, spec: { containers: [{ name: 'c', resources: requests ? { requests } : {} }], ...spec },
});

async function refusal(p: Promise<void> | void): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error('expected a refusal');
}

describe('ResourceQuota admission', () => {
  it('charges admitted requests and refuses the one past the limit with upstream message', async () => {
    const mem = new MemQuotas([quota('compute', { pods: '2', 'requests.cpu': '1' }, { pods: '0', 'requests.cpu': '0' })]);
    const plugin = new ResourceQuota(mem);
    await plugin.validate(attrs('pods', podWith('a', { cpu: '600m' })));
    expect(mem.used('compute')).to.deep.equal({ pods: '1', 'requests.cpu': '600m' });
    const err = await refusal(plugin.validate(attrs('pods', podWith('b', { cpu: '500m' }))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
    const missing = await refusal(plugin.validate(attrs('pods', podWith('c'))));
    expect(missing.message).to.equal('pods "c" is forbidden: failed quota: compute: must specify requests.cpu for: c');
  });

  it('reports unknown status, ignores subresources, other namespaces\' objects and dry runs', async () => {
    const mem = new MemQuotas([quota('q', { 'count/configmaps': '1' }, {})]);
    const plugin = new ResourceQuota(mem);
    const cm = { metadata: { name: 'x' } };
    const err = await refusal(plugin.validate(attrs('configmaps', cm)));
    expect(err.message).to.equal('configmaps "x" is forbidden: status unknown for quota: q, resources: count/configmaps');
    await plugin.validate(attrs('configmaps', cm, { subresource: 'status' }));
    mem.quotas = [quota('q', { 'count/configmaps': '1' }, { 'count/configmaps': '0' })];
    await plugin.validate(attrs('configmaps', cm, { dryRun: true }));
    expect(mem.writes).to.equal(0);
    await plugin.validate(attrs('configmaps', cm));
    expect((await refusal(plugin.validate(attrs('configmaps', { metadata: { name: 'y' } })))).message)
      .to.equal('configmaps "y" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1');
  });

  it('applies scoped quotas only to pods in scope', async () => {
    const mem = new MemQuotas([
      quota('besteffort', { pods: '1' }, { pods: '0' }, { scopes: ['BestEffort'] }),
      quota('high', { pods: '0' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }),
    ]);
    const plugin = new ResourceQuota(mem);
    await plugin.validate(attrs('pods', podWith('be1')));
    await plugin.validate(attrs('pods', podWith('burst', { cpu: '1' })));
    expect((await refusal(plugin.validate(attrs('pods', podWith('be2'))))).message).to.match(/exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1$/);
    expect((await refusal(plugin.validate(attrs('pods', podWith('hi', { cpu: '1' }, { priorityClassName: 'high' }))))).message).to.match(/exceeded quota: high,/);
  });

  it('charges updates by their growth only', async () => {
    const mem = new MemQuotas([quota('lb', { 'services.loadbalancers': '1' }, { 'services.loadbalancers': '1' })]);
    const plugin = new ResourceQuota(mem);
    const old = { metadata: { name: 's', resourceVersion: '5' }, spec: { type: 'LoadBalancer', ports: [] } };
    await plugin.validate(attrs('services', { metadata: { name: 's' }, spec: { type: 'LoadBalancer', ports: [{ port: 81 }] } }, { operation: 'UPDATE', oldObject: old }));
    const other = { metadata: { name: 't', resourceVersion: '5' }, spec: { type: 'ClusterIP' } };
    const err = await refusal(plugin.validate(attrs('services', { metadata: { name: 't' }, spec: { type: 'LoadBalancer' } }, { operation: 'UPDATE', oldObject: other })));
    expect(err.message).to.match(/exceeded quota: lb, requested: services.loadbalancers=1/);
  });

  it('requires a covering quota for limitedResources from its configuration', async () => {
    const limited = parseQuotaConfiguration({
      apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration',
      limitedResources: [{ resource: 'pods', matchContains: ['requests.cpu'] }],
    });
    const plugin = new ResourceQuota(new MemQuotas([]), limited);
    expect((await refusal(plugin.validate(attrs('pods', podWith('p', { cpu: '1' }))))).message)
      .to.equal('pods "p" is forbidden: insufficient quota to consume: requests.cpu');
    await plugin.validate(attrs('pods', podWith('q')));
    const covered = new ResourceQuota(new MemQuotas([quota('cpu', { 'requests.cpu': '2' }, { 'requests.cpu': '0' })]), limited);
    await covered.validate(attrs('pods', podWith('p', { cpu: '1' })));
  });

  it('two evaluators racing over one quota admit exactly the limit', async () => {
    const mem = new MemQuotas([quota('cm', { 'count/configmaps': '25' }, { 'count/configmaps': '0' })]);
    const replicas = [new ResourceQuota(mem), new ResourceQuota(mem)];
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => replicas[i % 2].validate(attrs('configmaps', { metadata: { name: `c${i}` } }))));
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(25);
    const reasons = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as StatusError).code);
    expect(new Set(reasons)).to.deep.equal(new Set([403]));
    expect(mem.used('cm')).to.deep.equal({ 'count/configmaps': '25' });
  });
});
