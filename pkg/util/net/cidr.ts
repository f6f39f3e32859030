// IP addresses and CIDRs as numbers, for range arithmetic (service IP allocation).
// Strings are printed as Go's net.IP.String() does (RFC 5952 for IPv6).
import { isIPv4, isIPv6 } from 'node:net';

export type IPFamily = 'IPv4' | 'IPv6';

export interface CIDR {
  family: IPFamily;
  /** The network address (host bits cleared). */
  network: bigint;
  prefixLength: number;
  /** 32 or 128. */
  bits: number;
}

export function familyOfIP(ip: string): IPFamily | undefined {
  if (isIPv4(ip)) return 'IPv4';
  if (isIPv6(ip)) return 'IPv6';
  return undefined;
}

/** The address as a number, or undefined when it is not an IP. */
export function ipToBigInt(ip: string): bigint | undefined {
  const family = familyOfIP(ip);
  if (family === 'IPv4') return ip.split('.').reduce((n, o) => (n << 8n) | BigInt(Number(o)), 0n);
  if (family !== 'IPv6') return undefined;
  let text = ip;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipToBigInt(v4[1])!;
    text = `${text.slice(0, -v4[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

export function bigIntToIP(n: bigint, family: IPFamily): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run (of two or more) of zero groups becomes "::", the first one on ties.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** Parses "10.0.0.0/24" or "fd00::/108"; host bits are cleared as Go's ParseCIDR does. */
export function parseCIDR(text: string): CIDR | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = text.slice(0, slash);
  const len = text.slice(slash + 1);
  const family = familyOfIP(ip);
  if (!family || !/^\d{1,3}$/.test(len)) return undefined;
  const bits = family === 'IPv4' ? 32 : 128;
  const prefixLength = Number(len);
  if (prefixLength > bits) return undefined;
  const hostBits = BigInt(bits - prefixLength);
  const network = (ipToBigInt(ip)! >> hostBits) << hostBits;
  return { family, network, prefixLength, bits };
}

export function cidrString(c: CIDR): string {
  return `${bigIntToIP(c.network, c.family)}/${c.prefixLength}`;
}

/** How many addresses the CIDR holds. */
export function cidrSize(c: CIDR): bigint {
  return 1n << BigInt(c.bits - c.prefixLength);
}

export function cidrContains(c: CIDR, ip: string): boolean {
  if (familyOfIP(ip) !== c.family) return false;
  const n = ipToBigInt(ip)!;
  return n >= c.network && n < c.network + cidrSize(c);
}
