// The `kubernetes` Service in `default` (upstream's default-service controller): type
// ClusterIP at the first address of the service range, port https 443 -> the secure port.
import { bigIntToIP, parseCIDR } from '../../util/net/cidr.js';
import type { KubeObject } from '../../runtime/object.js';

export const kubernetesServiceName = 'kubernetes';
export const kubernetesServiceNamespace = 'default';
/** upstream DefaultServiceIPCIDR, used when --service-cluster-ip-range is empty. */
const defaultServiceRange = '10.0.0.0/24';

/** The first usable address of the (primary) service range: its network address + 1. */
export function firstServiceIP(range: string | undefined): string {
  const primary = (range && range.trim() !== '' ? range : defaultServiceRange).split(',')[0].trim();
  const cidr = parseCIDR(primary);
  if (!cidr) throw new Error(`service IP range specified in --service-cluster-ip-range failed to parse: invalid CIDR address: ${primary}`);
  return bigIntToIP(cidr.network + 1n, cidr.family);
}

export function servicePorts(securePort: number): Record<string, unknown>[] {
  return [{ name: 'https', protocol: 'TCP', port: 443, targetPort: securePort }];
}

export function kubernetesService(clusterIP: string, securePort: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: kubernetesServiceName, namespace: kubernetesServiceNamespace, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { ports: servicePorts(securePort), clusterIP, ipFamilyPolicy: 'SingleStack', sessionAffinity: 'None', type: 'ClusterIP' },
  };
}

/**
 * Whether `get` finds the Service within `waitMs`, asked every `stepMs` until `stopped`:
 * a replica whose create met "provided IP is already allocated" while the Service was
 * absent raced another replica's create, which claims the IP before its object is written.
 */
export async function appearsWithin(get: () => Promise<unknown>, waitMs: number, stopped: () => boolean, stepMs = 100): Promise<boolean> {
  for (const until = Date.now() + waitMs; ;) {
    if (await get().then(() => true, () => false)) return true;
    if (stopped() || Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
