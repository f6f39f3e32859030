// The scheduler's stand-in: a reflector on unscheduled pods (fieldSelector
// spec.nodeName=, as kube-scheduler's), each bound to the least-loaded node through
// pods/binding, at most `qps` bindings a second.
import { clock, sleep, type ApiClient, type KubeObj } from './client.js';
import type { PodLedger } from './kubelet.js';

const workers = 8;

export class SchedulerStandIn {
  private readonly queue: KubeObj[] = [];
  private readonly queued = new Set<string>();
  private readonly load = new Map<string, number>();
  private stopped = false;
  private stopWatch?: () => void;
  bindings = 0;

  constructor(private readonly api: ApiClient, nodes: string[], private readonly ledger: PodLedger, private readonly qps: number) {
    for (const n of nodes) this.load.set(n, 0);
  }

  start(): void {
    const offer = (p: KubeObj, at: number): void => {
      const key = `${p.metadata.namespace}/${p.metadata.name}`;
      if ((p.spec as { nodeName?: string }).nodeName || p.metadata.deletionTimestamp || this.queued.has(key)) return;
      this.ledger.stages.mark(key, 'schedulerSaw', at);
      this.queued.add(key);
      this.queue.push(p);
    };
    this.stopWatch = this.api.reflect(`/api/v1/pods?fieldSelector=${encodeURIComponent('spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed')}`, { resource: 'pods', scope: 'cluster' }, {
      onList: (items) => { const at = clock(); for (const p of items) offer(p, at); },
      onEvent: (type, p, at) => { if (type === 'ADDED' || type === 'MODIFIED') offer(p, at); },
    });
    // A few bindings in flight, as kube-scheduler's binding goroutines.
    for (let i = 0; i < workers; i++) void this.bindLoop();
  }

  private async bindLoop(): Promise<void> {
    const interval = (1000 * workers) / this.qps;
    while (!this.stopped) {
      const p = this.queue.shift();
      if (!p) { await sleep(20); continue; }
      const key = `${p.metadata.namespace}/${p.metadata.name}`;
      let node = '';
      let least = Infinity;
      for (const [n, l] of this.load) if (l < least) { least = l; node = n; }
      const t0 = Date.now();
      this.ledger.stages.mark(key, 'bindSent', clock(), true);
      const res = await this.api.call({ resource: 'pods/binding', verb: 'POST', scope: 'resource' }, 'POST', `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}/binding`,
        { apiVersion: 'v1', kind: 'Binding', metadata: { name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
      if (res.status !== 201 && res.status !== 404 && res.status !== 409) {
        // As kube-scheduler's backoff queue: try again later, it is still pending.
        setTimeout(() => { if (!this.stopped) this.queue.push(p); }, 1000);
        continue;
      }
      this.queued.delete(key);
      if (res.status === 201) {
        this.ledger.stages.mark(key, 'bound', clock());
        this.bindings++;
        this.load.set(node, least + 1);
        let b = this.ledger.bound.get(node);
        if (!b) this.ledger.bound.set(node, (b = new Set()));
        b.add(key);
      }
      const left = interval - (Date.now() - t0);
      if (left > 0) await sleep(left);
    }
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
  }
}
