// The `kubernetes` Service in `default` (upstream's default-service controller): type
// ClusterIP at the first address of the service range, port https 443 -> the secure port.
import { parseIPSloppy } from '../../apis/validation/ip.js';
import type { KubeObject } from '../../runtime/object.js';

export const kubernetesServiceName = 'kubernetes';
export const kubernetesServiceNamespace = 'default';
/** upstream DefaultServiceIPCIDR, used when --service-cluster-ip-range is empty. */
const defaultServiceRange = '10.0.0.0/24';

/** The first usable address of the (primary) service range: its network address + 1. */
export function firstServiceIP(range: string | undefined): string {
  const primary = (range && range.trim() !== '' ? range : defaultServiceRange).split(',')[0].trim();
  const [addr, len] = primary.split('/');
  const ip = parseIPSloppy(addr);
  const prefix = Number(len);
  if (!ip || !/^\d+$/.test(len ?? '') || prefix > ip.bytes.length * 8) {
    throw new Error(`service IP range specified in --service-cluster-ip-range failed to parse: invalid CIDR address: ${primary}`);
  }
  const bits = BigInt(ip.bytes.length * 8);
  const n = ip.bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  const host = bits - BigInt(prefix);
  const first = ((n >> host) << host) + 1n;
  const bytes = Array.from({ length: ip.bytes.length }, (_, i) => Number((first >> (8n * BigInt(ip.bytes.length - 1 - i))) & 0xffn));
  if (ip.family === 'IPv4') return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
  return compressIPv6(groups);
}

/** RFC 5952: the longest run of two or more zero groups becomes "::". */
function compressIPv6(groups: string[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
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
