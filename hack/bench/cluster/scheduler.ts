// The scheduler's stand-in, shaped as kube-scheduler v1.28 runs: a reflector on
// unscheduled pods (fieldSelector spec.nodeName=, as kube-scheduler's) and one on every
// Node (its node informer; the stand-in places by its own count of pods); one scheduling
// loop that takes pods from its queue one at a time, picks the least-loaded node and
// assumes the pod there (scheduleOne's scheduling cycle); and a binding per pod sent
// without waiting for the one before (scheduleOne hands each binding cycle to a goroutine
// of its own), every call paced by its client's token bucket (kube-scheduler's defaults:
// --kube-api-qps 50, --kube-api-burst 100; client-go's token-bucket rate limiter). A
// binding that fails goes back to the queue after a second (podInitialBackoffSeconds 1).
import { clock, withFieldSelector, type ApiClient, type KubeObj } from './client.js';
import { emit, scheduledEvent } from './events.js';
import type { PodLedger } from './kubelet.js';
import { TokenBucket } from './token-bucket.js';

const backoffMs = 1000;

export class SchedulerStandIn {
  private readonly queue: KubeObj[] = [];
  private readonly queued = new Set<string>();
  private readonly load = new Map<string, number>();
  private readonly limiter: TokenBucket;
  private stopped = false;
  private stopWatch?: () => void;
  private stopNodeWatch?: () => void;
  /** Wakes the scheduling loop when the queue gets a pod. */
  private wake?: () => void;
  bindings = 0;

  constructor(private readonly api: ApiClient, nodes: string[], private readonly ledger: PodLedger, qps: number, burst: number, private readonly events = false) {
    for (const n of nodes) this.load.set(n, 0);
    this.limiter = new TokenBucket(qps, burst);
  }

  start(): void {
    const offer = (p: KubeObj, at: number): void => {
      const key = `${p.metadata.namespace}/${p.metadata.name}`;
      if ((p.spec as { nodeName?: string }).nodeName || p.metadata.deletionTimestamp || this.queued.has(key)) return;
      this.ledger.stages.mark(key, 'schedulerSaw', at);
      this.queued.add(key);
      this.enqueue(p);
    };
    this.stopWatch = this.api.reflect(withFieldSelector('/api/v1/pods', 'spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed'), { resource: 'pods', scope: 'cluster' }, {
      onList: (items) => { const at = clock(); for (const p of items) offer(p, at); },
      onEvent: (type, p, at) => { if (type === 'ADDED' || type === 'MODIFIED') offer(p, at); },
    });
    this.stopNodeWatch = this.api.reflect('/api/v1/nodes', { resource: 'nodes', scope: 'cluster' }, { onEvent: () => undefined });
    void this.scheduleLoop();
  }

  private enqueue(p: KubeObj): void {
    this.queue.push(p);
    this.wake?.();
  }

  private async scheduleLoop(): Promise<void> {
    while (!this.stopped) {
      const p = this.queue.shift();
      if (!p) { await new Promise<void>((r) => { this.wake = r; }); this.wake = undefined; continue; }
      let node = '';
      let least = Infinity;
      for (const [n, l] of this.load) if (l < least) { least = l; node = n; }
      // Assumed on its node before the binding is answered, so the next pod sees it there.
      this.load.set(node, least + 1);
      void this.bind(p, node);
    }
  }

  private async bind(p: KubeObj, node: string): Promise<void> {
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    await this.limiter.take();
    if (this.stopped) return;
    this.ledger.stages.mark(key, 'bindSent', clock(), true);
    const res = await this.api.call({ resource: 'pods/binding', verb: 'POST', scope: 'resource' }, 'POST', `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}/binding`,
      { apiVersion: 'v1', kind: 'Binding', metadata: { name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
    if (res.status !== 201) this.load.set(node, (this.load.get(node) ?? 1) - 1);
    if (res.status !== 201 && res.status !== 404 && res.status !== 409) {
      // As kube-scheduler's backoff queue: try again later, it is still pending.
      setTimeout(() => { if (!this.stopped) this.enqueue(p); }, backoffMs);
      return;
    }
    this.queued.delete(key);
    if (res.status !== 201) return;
    this.ledger.stages.mark(key, 'bound', clock());
    this.bindings++;
    if (this.events) emit(this.api, scheduledEvent({ namespace: p.metadata.namespace ?? '', name: p.metadata.name, uid: p.metadata.uid ?? '', resourceVersion: p.metadata.resourceVersion }, node));
    let b = this.ledger.bound.get(node);
    if (!b) this.ledger.bound.set(node, (b = new Set()));
    b.add(key);
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
    this.stopNodeWatch?.();
    this.wake?.();
  }
}
