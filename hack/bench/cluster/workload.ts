// The workload, shaped like ClusterLoader2's `load` test: per Deployment a ConfigMap and a
// Secret its pods mount, a Service selecting them (and its EndpointSlice), created at a
// set QPS; then scaled (each Deployment to between half and one and a half of its size)
// and deleted. Pods come from a ReplicaSet-controller stand-in (a ReplicaSet per
// Deployment, pods with generateName and an owner reference, graceful deletes), or with
// `external` from a real controller manager, in which case only Deployments are written.
import { clock, sleep, type ApiClient, type KubeObj } from './client.js';
import { coreEvent, emit } from './events.js';
import type { PodLedger } from './kubelet.js';
import { TokenBucket } from './token-bucket.js';

export interface WorkloadOptions { namespaces: number; deployments: number; podsPerDeployment: number; qps: number; external: boolean; graceSeconds: number; mounts: number; events?: boolean }

interface Deployment { ns: string; name: string; size: number; rsUid?: string; pods: Set<string> }

export class LoadDriver {
  readonly deployments: Deployment[] = [];
  /** At most `qps` starts a second, shared by every caller: a bucket of one token. */
  private readonly limiter: TokenBucket;

  constructor(private readonly api: ApiClient, private readonly ledger: PodLedger, private readonly o: WorkloadOptions) {
    this.limiter = new TokenBucket(o.qps, 1);
    for (let d = 0; d < o.deployments; d++) {
      this.deployments.push({ ns: `load-${d % o.namespaces}`, name: `dep-${d}`, size: o.podsPerDeployment, pods: new Set() });
    }
  }

  private async call(resource: string, verb: string, method: string, path: string, body?: unknown, contentType?: string) {
    await this.limiter.take();
    return this.api.call<KubeObj>({ resource, verb, scope: 'resource' }, method, path, body, contentType);
  }

  /**
   * A controller's create of an object it needs the UID of: retried while the API could
   * not take it (no answer, 429, 5xx), and read back when an earlier try had made it.
   */
  private async createOrGet(resource: string, collection: string, body: KubeObj): Promise<KubeObj | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await this.call(resource, 'POST', 'POST', collection, body);
      if (res.status === 201) return res.body;
      if (res.status === 409) {
        const got = await this.call(resource, 'GET', 'GET', `${collection}/${body.metadata.name}`);
        return got.status === 200 ? got.body : undefined;
      }
      if (res.status !== 0 && res.status !== 429 && res.status < 500) return undefined;
      await sleep(1000);
    }
    return undefined;
  }

  async createNamespaces(): Promise<void> {
    for (let i = 0; i < this.o.namespaces; i++) {
      await this.call('namespaces', 'POST', 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `load-${i}` } });
    }
    // Pods need each namespace's default ServiceAccount (the service account controller's).
    for (let i = 0; i < this.o.namespaces; i++) {
      for (let t = 0; t < 300; t++) {
        const sa = await this.api.unrecorded(`/api/v1/namespaces/load-${i}/serviceaccounts/default`);
        if (sa.status === 200) break;
        await sleep(200);
      }
    }
  }

  async create(): Promise<void> {
    await Promise.all(this.deployments.map((d) => this.createOne(d)));
  }

  private async createOne(d: Deployment): Promise<void> {
    const base = `/api/v1/namespaces/${d.ns}`;
    const labels = { app: d.name };
    await this.call('configmaps', 'POST', 'POST', `${base}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: d.name }, data: { 'config.yaml': 'x'.repeat(256) } });
    await this.call('secrets', 'POST', 'POST', `${base}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: d.name }, data: { token: Buffer.from('y'.repeat(64)).toString('base64') } });
    const svc = await this.call('services', 'POST', 'POST', `${base}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: d.name }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] } });
    if (!this.o.external && svc.status === 201) {
      await this.call('endpointslices', 'POST', 'POST', `/apis/discovery.k8s.io/v1/namespaces/${d.ns}/endpointslices`, {
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${d.name}-abcde`, labels: { 'kubernetes.io/service-name': d.name, 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' } },
        addressType: 'IPv4', endpoints: [], ports: [{ name: '', port: 8080, protocol: 'TCP' }],
      });
    }
    const dep = await this.createOrGet('deployments', `/apis/apps/v1/namespaces/${d.ns}/deployments`, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: d.name, labels },
      spec: { replicas: d.size, selector: { matchLabels: labels }, template: this.template(d) },
    });
    if (this.o.external || !dep) return;
    const rs = await this.createOrGet('replicasets', `/apis/apps/v1/namespaces/${d.ns}/replicasets`, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: { name: `${d.name}-5d8f7`, labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.name, uid: dep.metadata.uid, controller: true, blockOwnerDeletion: true }] },
      spec: { replicas: d.size, selector: { matchLabels: labels }, template: this.template(d) },
    });
    if (!rs) return;
    d.rsUid = rs.metadata.uid;
    if (this.o.events) emit(this.api, coreEvent('Deployment', 'apps/v1', { namespace: d.ns, name: d.name, uid: dep.metadata.uid ?? '' }, 'ScalingReplicaSet', `Scaled up replica set ${rs.metadata.name} to ${d.size}`, 'deployment-controller'));
    await this.scalePods(d, d.size);
  }

  private template(d: Deployment) {
    return {
      metadata: { labels: { app: d.name } },
      spec: {
        automountServiceAccountToken: false, terminationGracePeriodSeconds: this.o.graceSeconds,
        containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '10m', memory: '10M' } }, volumeMounts: [{ name: 'cm', mountPath: '/cm' }, { name: 'secret', mountPath: '/secret' }].slice(0, this.o.mounts) }],
        volumes: [{ name: 'cm', configMap: { name: d.name } }, { name: 'secret', secret: { secretName: d.name } }].slice(0, this.o.mounts),
      },
    };
  }

  /** The ReplicaSet controller's part: create or gracefully delete pods until `want` remain. */
  private async scalePods(d: Deployment, want: number): Promise<void> {
    const rsName = `${d.name}-5d8f7`;
    const jobs: Array<Promise<unknown>> = [];
    while (d.pods.size + jobs.length < want) {
      jobs.push((async () => {
        // Start-up counts from the create's send, not from the driver's own rate limit.
        await this.limiter.take();
        const sentAt = clock();
        const res = await this.api.call<KubeObj>({ resource: 'pods', verb: 'POST', scope: 'resource' }, 'POST', `/api/v1/namespaces/${d.ns}/pods`, {
          apiVersion: 'v1', kind: 'Pod',
          metadata: { generateName: `${rsName}-`, labels: { app: d.name }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: d.rsUid, controller: true, blockOwnerDeletion: true }] },
          spec: this.template(d).spec,
        });
        if (res.status === 201) {
          const key = `${d.ns}/${res.body.metadata.name}`;
          d.pods.add(key);
          if (this.o.events) emit(this.api, coreEvent('ReplicaSet', 'apps/v1', { namespace: d.ns, name: rsName, uid: d.rsUid ?? '' }, 'SuccessfulCreate', `Created pod: ${res.body.metadata.name}`, 'replicaset-controller'));
          this.ledger.stages.mark(key, 'sent', sentAt);
          this.ledger.stages.mark(key, 'answered', clock());
          const ran = this.ledger.ranBeforeAnswer.get(key);
          if (ran === undefined) this.ledger.createdAt.set(key, sentAt);
          else { this.ledger.ranBeforeAnswer.delete(key); this.ledger.startup.push(ran - sentAt); }
        }
      })());
    }
    for (const key of [...d.pods].slice(want)) {
      d.pods.delete(key);
      this.ledger.createdAt.delete(key);
      this.ledger.ranBeforeAnswer.delete(key);
      this.ledger.stages.drop(key);
      jobs.push(this.call('pods', 'DELETE', 'DELETE', `/api/v1/namespaces/${key.replace('/', '/pods/')}`));
    }
    await Promise.all(jobs);
  }

  /** Each Deployment to a random size between half and one and a half of its own. */
  async scale(): Promise<void> {
    await Promise.all(this.deployments.map(async (d) => {
      const size = Math.max(1, Math.round(this.o.podsPerDeployment * (0.5 + Math.random())));
      d.size = size;
      const patch = { spec: { replicas: size } };
      await this.call('deployments', 'PATCH', 'PATCH', `/apis/apps/v1/namespaces/${d.ns}/deployments/${d.name}`, patch, 'application/strategic-merge-patch+json');
      if (this.o.external) return;
      await this.call('replicasets', 'PATCH', 'PATCH', `/apis/apps/v1/namespaces/${d.ns}/replicasets/${d.name}-5d8f7`, patch, 'application/strategic-merge-patch+json');
      await this.scalePods(d, size);
    }));
  }

  async delete(): Promise<void> {
    await Promise.all(this.deployments.map(async (d) => {
      const base = `/api/v1/namespaces/${d.ns}`;
      if (!this.o.external) {
        await this.scalePods(d, 0);
        await this.call('replicasets', 'DELETE', 'DELETE', `/apis/apps/v1/namespaces/${d.ns}/replicasets/${d.name}-5d8f7`);
        await this.call('endpointslices', 'DELETE', 'DELETE', `/apis/discovery.k8s.io/v1/namespaces/${d.ns}/endpointslices/${d.name}-abcde`);
      }
      await this.call('deployments', 'DELETE', 'DELETE', `/apis/apps/v1/namespaces/${d.ns}/deployments/${d.name}`);
      await this.call('services', 'DELETE', 'DELETE', `${base}/services/${d.name}`);
      await this.call('configmaps', 'DELETE', 'DELETE', `${base}/configmaps/${d.name}`);
      await this.call('secrets', 'DELETE', 'DELETE', `${base}/secrets/${d.name}`);
    }));
  }

  /** Pods (by their ledger) not yet reported Running; with `external`, counted from a list. */
  pending(): number {
    return this.ledger.createdAt.size;
  }

  /** Pods still present in the load namespaces (a cluster-scope list, as a test harness does). */
  async remainingPods(): Promise<number> {
    const res = await this.api.call<{ items: unknown[] }>({ resource: 'pods', verb: 'LIST', scope: 'cluster' }, 'GET', '/api/v1/pods?labelSelector=app');
    return res.status === 200 ? res.body.items.length : -1;
  }
}
