// --service-cluster-ip-range and --service-node-port-range, parsed and checked with
// upstream's defaults and messages (kube-apiserver's validateClusterIPFlags).
import { cidrSize, parseCIDR, type CIDR } from '../../../../util/net/cidr.js';
import { PortRange } from './ranges.js';

/** upstream DefaultServiceIPCIDR, used when the flag is empty. */
export const defaultServiceClusterIPRange = '10.0.0.0/24';
/** upstream DefaultServiceNodePortRange. */
export const defaultServiceNodePortRange = '30000-32767';
/** The allocation is kept in etcd, so ranges stay smallish (upstream's maxCIDRBits). */
const maxCIDRBits = 20;

/** One CIDR, or two of different families (dual-stack), primary first. */
export function parseServiceClusterIPRange(flag: string | undefined): CIDR[] {
  const text = flag && flag.trim() !== '' ? flag : defaultServiceClusterIPRange;
  const parts = text.split(',').map((p) => p.trim());
  const errs: string[] = [];
  if (parts.length > 2) errs.push('--service-cluster-ip-range must not contain more than two entries');
  const primary = parseCIDR(parts[0]);
  if (!primary) throw new Error('service-cluster-ip-range[0] is not a valid cidr');
  const out = [primary];
  if (cidrSize(primary) < 8n) {
    throw new Error('error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses');
  }
  const tooLarge = (c: CIDR, name: string): void => {
    if (c.bits - c.prefixLength > maxCIDRBits) {
      errs.push(`specified ${name} is too large; for ${c.bits}-bit addresses, the mask must be >= ${c.bits - maxCIDRBits}`);
    }
  };
  tooLarge(primary, '--service-cluster-ip-range');
  if (parts.length > 1) {
    const secondary = parseCIDR(parts[1]);
    if (!secondary) throw new Error('service-cluster-ip-range[1] is not a valid cidr');
    if (secondary.family === primary.family) {
      errs.push('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    }
    tooLarge(secondary, '--service-cluster-ip-range[1]');
    out.push(secondary);
  }
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  return out;
}

/** upstream PortRange.Set: "a-b", "a+n" (a to a+n) or a single port; pflag wraps its errors. */
export function parseServiceNodePortRange(flag: string | undefined): PortRange {
  const text = (flag ?? '').trim() || defaultServiceNodePortRange;
  const fail = (why: string): Error => new Error(`invalid argument "${text}" for "--service-node-port-range" flag: ${why}`);
  const m = /^(\d+)(?:([-+])(\d+))?$/.exec(text);
  if (!m) throw fail(`unable to parse port range: ${text}`);
  const low = Number(m[1]);
  let high = low;
  if (m[2] === '-') high = Number(m[3]);
  else if (m[2] === '+') high = low + Number(m[3]);
  if (low > 65535 || high > 65535) throw fail(`the port range cannot be greater than 65535: ${text}`);
  if (high < low) throw fail(`end port cannot be less than start port: ${text}`);
  return new PortRange(low, high - low + 1);
}
