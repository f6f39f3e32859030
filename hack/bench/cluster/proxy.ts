// A simulated kube-proxy, as system:kube-proxy (what a real one holds open; it writes
// nothing): reflectors on Services and EndpointSlices cluster-wide, and on its own Node
// (fieldSelector metadata.name, as v1.28's kube-proxy: its node informer only feeds it
// the node's own labels and podCIDR). `allNodes` watches every Node instead, the shape
// runs before session 48 used: 100 kube-proxies listing 1,000 Nodes at once and every
// Node status patch reaching each of them, a load no v1.28 component sends.
// The kube-proxies of a run live on a worker thread of their own (startKubeProxies):
// parsing their watch events on the main thread delayed every answer the kubelets, the
// scheduler and the driver were timing there.
import { Worker } from 'node:worker_threads';
import { withFieldSelector, type ApiClient, type Identity, type Protocol } from './client.js';
import type { Recorder, RecorderSnapshot } from './recorder.js';

export type Saw = Pick<Recorder, 'saw'>;

export function startKubeProxy(api: ApiClient, rec: Saw, node: string, allNodes: boolean): () => void {
  const seen = (resource: string) => ({ onEvent: (_t: string, o: { metadata: { namespace?: string; name: string; resourceVersion?: string } }, at: number) => rec.saw(`${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion ?? '', at) });
  const stops = [
    api.reflect('/api/v1/services?labelSelector=!service.kubernetes.io%2Fheadless%2C!service.kubernetes.io%2Fservice-proxy-name', { resource: 'services', scope: 'cluster' }, seen('services')),
    api.reflect('/apis/discovery.k8s.io/v1/endpointslices?labelSelector=!service.kubernetes.io%2Fheadless%2C!service.kubernetes.io%2Fservice-proxy-name', { resource: 'endpointslices', scope: 'cluster' }, seen('endpointslices')),
    api.reflect(allNodes ? '/api/v1/nodes' : withFieldSelector('/api/v1/nodes', `metadata.name=${node}`), { resource: 'nodes', scope: 'cluster' }, seen('nodes')),
  ];
  return () => { for (const s of stops) s(); };
}

export interface ProxyData { server: string; id: Identity; nodes: string[]; allNodes: boolean; userAgent: string; protocol: Protocol }
/** Watch events seen on the worker, flattened: id, resourceVersion, arrival time, ... */
export type SawBatch = Array<string | number>;
export type FromWorker = { saw: SawBatch } | { done: RecorderSnapshot };

/** Events seen are handed to the main thread this often (its watch-lag matching lives there). */
export const flushMs = 100;

/**
 * A kube-proxy on each of `nodes`, on a worker thread, each with its own connection; their
 * calls are merged into `rec` when stopped, their watch events reach `rec.saw` as they come.
 */
export function startKubeProxies(server: string, id: Identity, nodes: string[], allNodes: boolean, userAgent: string, protocol: Protocol, rec: Recorder): () => Promise<void> {
  const worker = new Worker(new URL('./proxy-worker.js', import.meta.url), { workerData: { server, id, nodes, allNodes, userAgent, protocol } satisfies ProxyData });
  const done = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: FromWorker) => {
      if ('saw' in m) { for (let i = 0; i < m.saw.length; i += 3) rec.saw(m.saw[i] as string, m.saw[i + 1] as string, m.saw[i + 2] as number); return; }
      rec.merge(m.done);
      resolve();
    });
    worker.once('error', reject);
  });
  done.catch(() => undefined); // a thread that failed is reported when stopped
  return async () => {
    worker.postMessage('stop');
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
    await worker.terminate();
  };
}
