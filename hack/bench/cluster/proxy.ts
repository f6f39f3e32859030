// A simulated kube-proxy: reflectors on Services, EndpointSlices and Nodes, cluster-wide,
// as system:kube-proxy (what a real one holds open; it writes nothing).
import type { ApiClient } from './client.js';
import type { Recorder } from './recorder.js';

export function startKubeProxy(api: ApiClient, rec: Recorder): () => void {
  const seen = (resource: string) => ({ onEvent: (_t: string, o: { metadata: { namespace?: string; name: string; resourceVersion?: string } }, at: number) => rec.saw(`${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion ?? '', at) });
  const stops = [
    api.reflect('/api/v1/services?labelSelector=!service.kubernetes.io%2Fheadless%2C!service.kubernetes.io%2Fservice-proxy-name', { resource: 'services', scope: 'cluster' }, seen('services')),
    api.reflect('/apis/discovery.k8s.io/v1/endpointslices?labelSelector=!service.kubernetes.io%2Fheadless%2C!service.kubernetes.io%2Fservice-proxy-name', { resource: 'endpointslices', scope: 'cluster' }, seen('endpointslices')),
    api.reflect('/api/v1/nodes', { resource: 'nodes', scope: 'cluster' }, seen('nodes')),
  ];
  return () => { for (const s of stops) s(); };
}
