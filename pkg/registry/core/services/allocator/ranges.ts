// What a service allocator hands out: the usable addresses of a service CIDR, or the
// node port range. Each maps its items to indexes 0..size-1; the first `offset` indexes
// are the band upstream keeps for requested values (dynamic allocation prefers above it).
import {
  bigIntToIP, cidrContains, cidrSize, cidrString, ipToBigInt, type CIDR, type IPFamily,
} from '../../../../util/net/cidr.js';

export interface Range {
  /** Usable items. */
  readonly size: number;
  /** Indexes below this are tried last by allocateNext. */
  readonly offset: number;
  /** The etcd key segment (and display form) of an index. */
  label(index: number): string;
  /** Shown in "not in the valid range" messages. */
  toString(): string;
}

/** upstream calculateRangeOffset: min(max(min, size/step), max), 0 for tiny ranges. */
function rangeOffset(size: bigint, min: number, step: number, max: number): number {
  if (size <= BigInt(min)) return 0;
  const o = size / BigInt(step);
  if (o < BigInt(min)) return min;
  if (o > BigInt(max)) return max;
  return Number(o);
}

/**
 * Service IPs of one CIDR. The network address is never handed out, nor the IPv4
 * broadcast address; an IPv6 range is capped at 2^16 addresses, as upstream.
 */
export class IPRange implements Range {
  readonly family: IPFamily;
  readonly size: number;
  readonly offset: number;
  private readonly base: bigint;

  constructor(readonly cidr: CIDR) {
    this.family = cidr.family;
    let max = cidrSize(cidr);
    if (cidr.family === 'IPv6' && max > 65536n) max = 65536n;
    if (cidr.family === 'IPv4') max -= 1n;
    max -= 1n;
    this.size = max < 0n ? 0 : Number(max);
    this.base = cidr.network + 1n;
    this.offset = rangeOffset(cidrSize(cidr), 16, 16, 256);
  }

  /** The index of an IP, or undefined when it is outside the usable addresses. */
  indexOf(ip: string): number | undefined {
    if (!cidrContains(this.cidr, ip)) return undefined;
    const i = ipToBigInt(ip)! - this.base;
    return i >= 0n && i < BigInt(this.size) ? Number(i) : undefined;
  }

  label(index: number): string {
    return bigIntToIP(this.base + BigInt(index), this.family);
  }

  toString(): string {
    return cidrString(this.cidr);
  }
}

/** --service-node-port-range: base..base+size-1. */
export class PortRange implements Range {
  readonly offset: number;

  constructor(readonly base: number, readonly size: number) {
    this.offset = rangeOffset(BigInt(size), 16, 32, 128);
  }

  indexOf(port: number): number | undefined {
    const i = port - this.base;
    return Number.isInteger(i) && i >= 0 && i < this.size ? i : undefined;
  }

  label(index: number): string {
    return String(this.base + index);
  }

  toString(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }
}
